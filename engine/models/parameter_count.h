// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How many parameters a model has, by component, with the formula that gives the total.
#include "engine/models/model_spec.h"

#include <string>
#include <vector>

namespace napkin {

struct NamedCount {
    std::string name;
    double count = 0;
};

struct ParameterCount {
    double total = 0;            ///< exact for totals below 2^53 (≈9e15)
    double matmulParameters = 0; ///< weights one token multiplies by: what 2·tokens·params counts
    std::string formula;         ///< e.g. "L·D² + D = 2 × 4² + 4 = 36"
    std::vector<NamedCount> components;
    double active = 0;         ///< parameters one token touches: `total` except for a mixture of experts
    std::string activeFormula; ///< how `active` is summed (K of E experts); "= total" when dense
};

/// dense: N. cruncher: L·D² + D. linear2: D·D + D·K. transformer (GPT-2, tied head):
/// (4 + 2F)·L·d² + (9 + F)·L·d + V·d + S·d + 2·d, which is 12·L·d² + 13·L·d + V·d + S·d + 2·d for F = 4;
/// other architectures sum transformerParameters()'s pieces (Llama 3 8B: 8,030,261,248).
ParameterCount countParameters(const ModelSpec& model);

/// countParameters(model)'s numbers alone (no formula, no components), kept for this thread's last few
/// models: a recompute asks for the same model's counts in every probe of its searches, in the memory
/// timeline (one layer and none) and in the FLOP count.
struct ParameterTotals {
    double total = 0, matmulParameters = 0, active = 0;
};
ParameterTotals parameterTotals(const ModelSpec& model);

} // namespace napkin
