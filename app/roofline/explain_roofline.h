// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "How is this computed?" for the Roofline page: the two roofs with their sources, the ridge between
// them, the intensity of a GEMM as the measured points count it, and where the Inference tab's decode
// and prefill land.
#include "engine/inference/inference_accounting.h"
#include "engine/hardware/roofline.h"

#include <QString>

#include <optional>

/// HTML for the drawn `roof` (nullopt: none, e.g. an unmeasured CPU) and, when they are drawn on it, the
/// inference setting's `result`.
QString explainRoofline(const std::optional<napkin::Roofline>& roof, const napkin::InferenceResult* result);
