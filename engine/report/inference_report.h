// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The inference accounting as JSON: the document `napkin-cli infer --json` prints (its field names are
// the contract in docs/cli.md, "napkin-cli infer").
#include "engine/inference/inference_accounting.h"
#include "engine/steptime/inference_time.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// `times`: the prefill and decode the caller predicted (napkin-cli's --hardware-profile, the app's chosen
/// profile); null: from the GPU's published profile, predicted here. They go in `prefill_time` and
/// `decode_time`, beside the roofline's lower bounds (`prefill_seconds`, `decode_seconds_per_token`).
nlohmann::json inferenceToJson(const InferenceInput& input, const GpuSpec& gpu, const InferenceResult& result,
                               const InferenceTimes* times = nullptr);

} // namespace napkin
