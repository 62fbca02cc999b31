// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs matmul sweeps on a backend with a method worth reporting: seeded random data, warm-up until two
// consecutive timings agree, steady-clock repeats summarised as median and p20/p80, every result
// verified against a long-double reference, progress reported and cancellable.
#include "engine/benchmarks/benchmark_progress.h"
#include "engine/compute/benchmark_backend.h"
#include "engine/numerics/size_list.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// Runs every case in order. A case that fails records its message and the sweep goes on; a cancel
/// stops within one GEMM panel and leaves the remaining cases out (sweep.cancelled = true). The sweep
/// keeps `options`: they are part of the method its report states.
MatmulSweep runMatmulSweep(BenchmarkBackend& backend, const std::vector<MatmulCase>& cases,
                           const MatmulRunOptions& options = {}, const ProgressCallback& progress = {});

/// 2·m·n·k.
double matmulFlops(const MatmulCase& shape);

/// What a finished case's own numbers warn about, judged here once for every front end.
struct MatmulCaveats {
    /// Faster than its promised peak by more than kAboveRoofTolerance (MFU above 105 %): no GEMM on that
    /// device does that, so a timing or unit error (the Roofline page's "above the roof", compute-bound).
    bool abovePeak = false;
    /// Its median sample (median seconds × calls per sample) lasted under half the sweep's minimum sample
    /// time: too short for the clock to be trusted (fp32 n=128 once timed at 17 µs, an MFU of 171 %).
    bool shortSamples = false;
    bool any() const { return abovePeak || shortSamples; }
};
/// The caveats of `result` as measured with `options`; none for a failed case.
MatmulCaveats matmulCaveats(const MatmulResult& result, const MatmulRunOptions& options);
/// The caveats in words, "; "-separated ("above the peak: MFU 171 % ..."); empty when there are none.
std::string matmulCaveatText(const MatmulResult& result, const MatmulRunOptions& options);

/// The sizes a sweep accepts from either front end: whole numbers from 1 to 65536 per side.
SizeListRules matmulSizeRules();
/// "512,1024" → the n×n×n cases of `dtype`, or nullopt with `error` set to the size list's message.
std::optional<std::vector<MatmulCase>> squareMatmulCases(std::string_view sizes, BenchDtype dtype,
                                                         std::string* error);
/// "4096x4096x1024" → one MxNxK case, or nullopt with `error` set.
std::optional<MatmulCase> matmulShapeCase(std::string_view shape, BenchDtype dtype, std::string* error);

} // namespace napkin
