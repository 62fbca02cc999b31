// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU Cruncher trainers' own host loops, timed as they run them (one thread each): the batch's draw
// (fillCounterNormal, engine/compute/counter_normal.h) and the optimizer's update (applyOptimizerStep,
// engine/compute/cpu/optimizer_step.h). `napkin-cli calibrate` on the CPU puts both in the profile, so the
// Cruncher's predicted step (cruncher_step_time.h) prices their arithmetic — a hash, a log and a cosine per
// drawn element; Adam's square root and division per parameter — where their bytes alone priced them at
// a fifth of what they take (docs/benchmarks.md, "Cruncher: predicted beside measured step").
#include "engine/steptime/hardware_profile.h"

#include <cstddef>
#include <vector>

namespace napkin {

/// N(0, 1) draws per second of fillCounterNormal over `elements` floats: the median of `repeats` timed
/// fills after one warm-up.
double measureNormalDrawsPerSecond(std::size_t elements, int repeats);

/// Each optimizer's fp32 update over one tensor of `elements` parameters, in bytes per second with the
/// bytes the Cruncher's step counts for it (4 B gradient + 8 B weights + 8 B per state tensor, read and
/// written), as `fused` updates (one pass per element): the median of `repeats` after one warm-up.
std::vector<UpdateRate> measureCruncherUpdates(std::size_t elements, int repeats);

} // namespace napkin
