// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The roofline of this CPU, measured: the flat roof from the FMA loop (engine/compute/cpu/fma_peak.h),
// the slanted one from the STREAM-style triad (engine/compute/cpu/stream_triad.h).
#include "engine/compute/bench_dtype.h"
#include "engine/compute/memory_bandwidth.h"
#include "engine/hardware/roofline.h"

#include <optional>
#include <string>

namespace napkin {

/// Peak: the CPU backend's measured fp32 FMA-loop peak on `threads` threads (0: one per physical core),
/// scaled to `dtype` by the backend's own per-dtype promise ratio (fp64 half of fp32; bf16 ×2 where oneDNN
/// has AVX512_BF16 dot products, else ×1; fp16 ×1); bandwidth: the triad of arrays of `bytesPerArray`
/// (0: defaultBytesPerArray()). Each source says which. nullopt with `whyNot` for a dtype the CPU backend
/// cannot run (tf32, fp8-e4m3) or arrays that cannot be allocated. About two seconds on a desktop.
/// `bandwidth`, when given, receives the full triad result.
std::optional<Roofline> measureCpuRoofline(BenchDtype dtype, int threads, std::string* whyNot,
                                           std::uint64_t bytesPerArray = 0,
                                           MemoryBandwidthResult* bandwidth = nullptr);
/// As above, for a dtype name ("fp32", "bf16", ...); an unknown name is a `whyNot`.
std::optional<Roofline> measureCpuRoofline(const std::string& dtypeName, int threads, std::string* whyNot,
                                           std::uint64_t bytesPerArray = 0,
                                           MemoryBandwidthResult* bandwidth = nullptr);

/// "measured on this CPU: triad a[i] = b[i] + s·c[i], fp64, 3 × 1 GiB, 2 threads, median of 11 runs"
std::string measuredBandwidthSource(const MemoryBandwidthResult& r);

} // namespace napkin
