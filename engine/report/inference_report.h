#pragma once
// The inference accounting as JSON: the document `napkin-cli infer --json` prints (its field names are
// the contract in docs/cli.md, "napkin-cli infer").
#include "engine/accounting/inference_accounting.h"

#include <nlohmann/json.hpp>

namespace napkin {

nlohmann::json inferenceToJson(const InferenceInput& input, const GpuSpec& gpu,
                               const InferenceResult& result);

} // namespace napkin
