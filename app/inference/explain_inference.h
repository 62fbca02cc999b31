#pragma once
// "How is this computed?" for the Inference page: memory per GPU, prefill and decode time as roofline
// lower bounds, and whether a decode step waits on memory or arithmetic, each with the engine's formula
// (the same strings napkin-cli infer prints) and its value.
#include "engine/accounting/inference_accounting.h"

#include <QString>

/// HTML for `result` of `input` (validated).
QString explainInference(const napkin::InferenceInput& input, const napkin::InferenceResult& result);
