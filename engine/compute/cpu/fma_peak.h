#pragma once
// The CPU's fp32 FLOP/s as a tight loop of independent vector FMAs on every core actually reaches it:
// the ceiling a GEMM can hope for on this machine, today, under its current load.
namespace napkin {

struct FmaPeak {
    double flopsPerSecond = 0; ///< best of the trials, all threads together
    int threads = 0;
    int lanes = 0;        ///< fp32 lanes of the vector instructions used (16, 8 or 4)
    const char* isa = ""; ///< "avx512f", "avx2+fma", "sse2 (mul+add)"
};

/// Runs `threads` threads of 12 independent FMA chains each for about `secondsPerTrial`, `trials`
/// times, and keeps the best. The instruction set is chosen at run time (independent of -march).
FmaPeak measureFp32FmaPeak(int threads, double secondsPerTrial = 0.1, int trials = 3);

} // namespace napkin
