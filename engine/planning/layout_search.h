// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The fastest layout that fits: every candidate of the layout space (layout_space.h) judged by the
// engine's own validation, by its step peak plus overheads against usable memory (requiredBytes, as
// `account` judges `fits`), and ranked by its predicted step time (predictStepTime, step_time.h); a
// candidate whose compute-only lower bound (step_time_bound.h) cannot beat the K-th best found is skipped
// before it is accounted. Candidates are visited in the order of their bounds, so the search stops as soon
// as the next bound is too slow. The user's own layout is ranked against every candidate the search timed;
// a skipped one whose bound is below it leaves its rank a range (exact without pruning).
#include "engine/hardware/gpu_catalog.h"
#include "engine/planning/layout_plan.h"
#include "engine/planning/layout_space.h"
#include "engine/steptime/hardware_profile.h"
#include "engine/steptime/step_time.h"

#include <cstddef>
#include <functional>

namespace napkin {

struct PlanOptions {
    PlanConstraints constraints;
    std::size_t top = 5;         ///< K: how many layouts are ranked and reported (≥ 1)
    bool prune = true;           ///< false: every candidate is accounted (the same answer, more work)
    StepTimeOptions stepTime;    ///< as `account`'s (--no-dp-overlap)
    /// Told the fraction of the candidates' shapes visited so far, before each; false stops the search,
    /// which returns what it ranked by then (LayoutPlan::cancelled). The app's progress bar and Cancel.
    std::function<bool(double fraction)> keepGoing;
};

/// The layouts of `base` (its model, precision, optimizer, GPU, GPU count and overhead settings; its own
/// layout is placed in the ranking) ranked by predicted tokens per second on `profile`.
/// Precondition: base.gpu is in `catalog`.
LayoutPlan planLayouts(const AccountingInput& base, const GpuCatalog& catalog, const HardwareProfile& profile,
                       const PlanOptions& options = {});

} // namespace napkin
