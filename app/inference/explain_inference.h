// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "How is this computed?" for the Inference page: memory per GPU, prefill and decode time as roofline
// lower bounds, and whether a decode step waits on memory or arithmetic, each with the engine's formula
// (the same strings napkin-cli infer prints) and its value; then the predicted prefill and decode, their
// ledgers row by row (the rows of napkin-cli infer --json's prefill_time and decode_time).
#include "engine/inference/inference_accounting.h"
#include "engine/steptime/inference_time.h"

#include <QString>

/// HTML for `result` of `input` (validated), and its predicted `times`.
QString explainInference(const napkin::InferenceInput& input, const napkin::InferenceResult& result,
                         const napkin::InferenceTimes& times);
