#pragma once
// Runs matmul sweeps on a backend with a method worth reporting: seeded random data, warm-up until two
// consecutive timings agree, steady-clock repeats summarised as median and p20/p80, every result
// verified against a long-double reference, progress reported and cancellable.
#include "engine/compute/benchmark_backend.h"
#include "engine/numerics/size_list.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct BenchmarkProgress {
    int caseIndex = 0; ///< 0-based case being run
    int caseCount = 0;
    std::string phase; ///< "prepare", "warm-up", "timing", "verify"
    double fraction = 0; ///< of the whole sweep, in [0, 1]
};

/// Called often (between GEMM panels, i.e. every few tens of milliseconds); return false to cancel.
using ProgressCallback = std::function<bool(const BenchmarkProgress&)>;

struct MatmulRunOptions {
    int repeats = 11;             ///< timed samples per case
    int maxWarmupRuns = 20;       ///< warm-up stops here even if timings still move
    double warmupTolerance = 0.05; ///< warm-up ends when two consecutive runs agree within this fraction
    double minSampleSeconds = 0.002; ///< small GEMMs are repeated within one sample to reach this
    int verifySamples = 64;       ///< random output entries checked against the reference
    std::uint64_t seed = 42;
};

/// Runs every case in order. A case that fails records its message and the sweep goes on; a cancel
/// stops within one GEMM panel and leaves the remaining cases out (sweep.cancelled = true).
MatmulSweep runMatmulSweep(BenchmarkBackend& backend, const std::vector<MatmulCase>& cases,
                           const MatmulRunOptions& options = {}, const ProgressCallback& progress = {});

/// 2·m·n·k.
double matmulFlops(const MatmulCase& shape);

/// The sizes a sweep accepts from either front end: whole numbers from 1 to 65536 per side.
SizeListRules matmulSizeRules();
/// "512,1024" → the n×n×n cases of `dtype`, or nullopt with `error` set to the size list's message.
std::optional<std::vector<MatmulCase>> squareMatmulCases(std::string_view sizes, BenchDtype dtype,
                                                         std::string* error);
/// "4096x4096x1024" → one MxNxK case, or nullopt with `error` set.
std::optional<MatmulCase> matmulShapeCase(std::string_view shape, BenchDtype dtype, std::string* error);

} // namespace napkin
