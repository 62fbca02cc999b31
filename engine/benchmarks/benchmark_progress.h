// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How far a benchmark service is, as it reports to whoever runs it (a progress bar, a test).
#include <functional>
#include <optional>
#include <string>

namespace napkin {

struct MatmulResult; // engine/compute/benchmark_result.h

struct BenchmarkProgress {
    int caseIndex = 0; ///< 0-based case being run (a sweep); the step (a training run)
    int caseCount = 0;
    std::string phase;   ///< "prepare", "warm-up", "timing", "verify", "training"
    double fraction = 0; ///< of the whole run, in [0, 1]
    /// What runs now, in words a person reads beside the progress bar: "fp32 1024³ · repeat 7/11",
    /// "step 12/50". Empty before the first case starts.
    std::string detail;
    /// Set only on the call made as a sweep's case finishes (phase "done"): its result, valid during the
    /// call, so a front end can show each case as it lands rather than all of them at the sweep's end.
    const MatmulResult* finishedCase = nullptr;
    /// Set only on the call made as a training step finishes: that step's loss (caseIndex is the step), so
    /// a loss curve can grow step by step.
    std::optional<double> stepLoss;
};

/// Called often (between GEMM panels or training steps, every few tens of milliseconds); return false
/// to cancel. A false answer to the call that reports the last case or step changes nothing: the run
/// is whole.
using ProgressCallback = std::function<bool(const BenchmarkProgress&)>;

} // namespace napkin
