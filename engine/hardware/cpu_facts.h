// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the operating system says about the CPU, and the peak FLOP/s its datasheet arithmetic promises.
#include <optional>
#include <string>
#include <string_view>

namespace napkin {

struct CpuFacts {
    std::string modelName; ///< /proc/cpuinfo "model name"
    int logicalCpus = 0;
    int physicalCores = 0; ///< distinct (physical id, core id) pairs
    bool sse2 = false, avx = false, avx2 = false, fma = false, avx512f = false;
    std::optional<double> maxClockHz; ///< cpufreq cpuinfo_max_freq, else "@ x GHz" in the model name
    std::string clockSource;          ///< where maxClockHz came from, or why it is unknown
};

/// Parses /proc/cpuinfo text; `cpufreqMaxKhz` is /sys/.../cpuinfo_max_freq when readable.
CpuFacts parseCpuFacts(std::string_view cpuinfo, std::optional<double> cpufreqMaxKhz);
/// Reads this machine's /proc/cpuinfo and cpufreq (falls back to hardware_concurrency for cores).
CpuFacts readCpuFacts();

/// fp32 lanes of the widest vector unit: AVX-512 16, AVX/AVX2 8, SSE 4.
int fp32Lanes(const CpuFacts& facts);
/// "avx512f+fma", "avx2+fma", "avx", "sse2".
std::string simdName(const CpuFacts& facts);

struct SpecPeak {
    std::optional<double> flopsPerSecond; ///< unset when the clock is unknown
    std::string formula;                  ///< with the numbers, or why unknown
};
/// cores × fp32 lanes × FMA units × 2 × clock. Two FMA units per core is assumed for FMA-capable x86
/// cores (Haswell and later, Zen); one "FMA-equivalent" (a multiply and an add port) otherwise.
SpecPeak specFp32Peak(const CpuFacts& facts);

} // namespace napkin
