// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A view chain as JSON: the document of `napkin-cli tensor --json` (the contract in docs/cli.md).
#include "engine/tensor/tensor_expression.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace napkin {

/// Element offsets are listed up to this many elements; beyond, "offsets" is null.
inline constexpr int64_t kMaxListedOffsets = 4096;

/// {expr, shape, stride, offset, contiguous, storage, storage_bytes, numel, is_view, bytes_allocated,
/// bytes_copied, offsets}.
nlohmann::json tensorStepJson(const TensorStep& step);
/// {input{shape, dtype, element_bytes, expression}, steps[], error{step, message, position} or null}.
nlohmann::json tensorEvaluationJson(const std::vector<int64_t>& shape, const TensorDType& dtype,
                                    std::string_view expression, const TensorEvaluation& evaluation);

} // namespace napkin
