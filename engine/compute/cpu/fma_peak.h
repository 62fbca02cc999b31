// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU's fp32 FLOP/s as a tight loop of independent vector FMAs on every core actually reaches it:
// the ceiling a GEMM can hope for on this machine, today, under its current load.
namespace napkin {

/// One sample's length: as long as a GEMM's sample (MatmulRunOptions::minSampleSeconds), so that the
/// loop and the GEMMs measured against it are timed alike.
inline constexpr double kFmaPeakSampleSeconds = 0.002;

struct FmaPeak {
    double flopsPerSecond = 0; ///< the fastest sample, all threads together
    int threads = 0;
    int samples = 0;      ///< samples of about kFmaPeakSampleSeconds timed
    int lanes = 0;        ///< fp32 lanes of the vector instructions used (16, 8 or 4)
    const char* isa = ""; ///< "avx512f", "avx2+fma", "sse2 (mul+add)"
};

/// Runs `threads` threads of 12 independent FMA chains each for about `secondsPerTrial` × `trials` in
/// all, in samples of about kFmaPeakSampleSeconds, and keeps the fastest sample. Short samples, as the
/// GEMMs' are: on a shared or CPU-quota-limited machine a 0.1 s trial averaged in the time its threads
/// were held off the core (78 GFLOP/s on one core whose 2 ms samples, and a oneDNN GEMM's, ran at 110 to
/// 118), and every GEMM measured "above the peak". The instruction set is chosen at run time
/// (independent of -march).
FmaPeak measureFp32FmaPeak(int threads, double secondsPerTrial = 0.1, int trials = 3);

} // namespace napkin
