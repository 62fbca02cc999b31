#pragma once
// How far a benchmark service is, as it reports to whoever runs it (a progress bar, a test).
#include <functional>
#include <string>

namespace napkin {

struct BenchmarkProgress {
    int caseIndex = 0; ///< 0-based case being run (a sweep); the step (a training run)
    int caseCount = 0;
    std::string phase;   ///< "prepare", "warm-up", "timing", "verify", "training"
    double fraction = 0; ///< of the whole run, in [0, 1]
    /// What runs now, in words a person reads beside the progress bar: "fp32 1024³ · repeat 7/11",
    /// "step 12/50". Empty before the first case starts.
    std::string detail;
};

/// Called often (between GEMM panels or training steps, every few tens of milliseconds); return false
/// to cancel.
using ProgressCallback = std::function<bool(const BenchmarkProgress&)>;

} // namespace napkin
