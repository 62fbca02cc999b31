// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Memory bandwidth: the plain types of the measurement and its pure rules (how bytes are counted, how big
// the arrays are by default, the datasheet promise). The measuring lives in engine/compute/cpu/
// stream_triad.cpp (the CPU's STREAM-style triad) and engine/compute/cuda/cuda_memory_bandwidth.cpp
// (device-to-device copies), reached through engine/benchmarks/memory_bandwidth_run.h.
#include "engine/hardware/gpu_catalog.h"
#include "engine/numerics/timing_summary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct MemoryBandwidthOptions {
    std::uint64_t bytesPerArray = 0; ///< bytes of each array; 0: defaultBytesPerArray() of the device's cache
    int repeats = 11;                ///< timed runs; the median is reported
    int warmupRuns = 2;              ///< untimed runs before them
    int threads = 0;                 ///< CPU threads; 0: one per physical core (as `bench matmul`)
};

/// How a bandwidth measurement counts the bytes of one run.
enum class BandwidthMethod {
    triad,      ///< a[i] = b[i] + s·c[i] over fp64 arrays: 2 reads + 1 write per element (STREAM)
    deviceCopy, ///< cudaMemcpy device-to-device: 1 read + 1 write per byte copied
};
/// "triad a[i] = b[i] + s·c[i], fp64" or "cudaMemcpy device-to-device".
std::string bandwidthMethodName(BandwidthMethod method);
/// How bytesMovedPerRun counts, in words (the convention the JSON states next to the figure).
std::string byteConvention(BandwidthMethod method);
/// Bytes one run moves by that convention: triad 3 × bytesPerArray (2 reads + 1 write; the write-allocate
/// read of a is not counted, as in STREAM), copy 2 × bytesPerArray (read + write).
double bytesMovedPerRun(BandwidthMethod method, std::uint64_t bytesPerArray);

/// Smallest default array: 256 MiB.
constexpr std::uint64_t kMinDefaultBytesPerArray = std::uint64_t{256} << 20;
/// Largest array --bytes may ask for: 16 GiB (three of them are allocated on the CPU).
constexpr std::uint64_t kMaxBytesPerArray = std::uint64_t{16} << 30;
/// The default size of each array: max(4 × last-level cache, 256 MiB), so that every run streams from
/// memory, not from cache; 256 MiB when the cache size is unknown. Rounded down to whole fp64 elements.
std::uint64_t defaultBytesPerArray(std::optional<std::uint64_t> lastLevelCacheBytes);
/// The rule above in words, with the numbers ("max(4 × 260 MiB L3, 256 MiB) = 1040 MiB").
std::string defaultBytesPerArrayRule(std::optional<std::uint64_t> lastLevelCacheBytes);
/// `bytes` rounded down to whole fp64 elements (the triad's arrays are double[]).
std::uint64_t wholeFp64Bytes(std::uint64_t bytes);
/// "64M", "1G", "1048576": whole bytes with optional binary suffix K/M/G (as `bench copy --sizes`), at least
/// one fp64 element (8 bytes) and at most kMaxBytesPerArray. Throws std::invalid_argument naming the fault.
std::uint64_t parseBytesPerArray(const std::string& text);

struct MemoryBandwidthResult {
    std::string device;         ///< "cpu" or "cuda"
    std::string deviceName;     ///< the CPU's model name or the GPU's name
    std::string catalogId;      ///< the GPU's catalog id; empty on the CPU or for an unknown GPU
    std::string method;         ///< bandwidthMethodName()
    std::string byteConvention; ///< byteConvention(): how bytes are counted
    std::uint64_t bytesPerArray = 0;
    std::string sizeRule; ///< why that size: "--bytes" or defaultBytesPerArrayRule()
    std::optional<std::uint64_t> lastLevelCacheBytes; ///< the cache the default size steps past
    double bytesMovedPerRun = 0;                      ///< bytesMovedPerRun(method, bytesPerArray)
    int threads = 0;                                  ///< CPU threads; 0 on a GPU
    int warmupRuns = 0;
    std::string timer; ///< "std::chrono::steady_clock ..." or "CUDA events ..."
    TimingSummary timing;
    double bytesPerSecond = 0; ///< bytesMovedPerRun / median seconds
    bool verified = false;     ///< the result arrays were checked against the expected values
    std::optional<double> promisedBytesPerSecond; ///< the datasheet's memory bandwidth; absent: no promise
    std::string promiseSource;                    ///< where the promise came from, or "none: why"
};

/// Fills timing and bytesPerSecond from the per-run seconds; a median of 0 gives 0 bytes/s (not inf).
void summarizeBandwidth(MemoryBandwidthResult& result, std::vector<double> seconds);
/// The datasheet memory bandwidth of catalog entry `catalogId`, with its source; nullopt when the id is
/// unknown or its datasheet gives none.
std::optional<double> deviceMemoryPromise(const GpuCatalog& catalog, std::string_view catalogId,
                                          std::string* source = nullptr);
/// What a CPU result says in promiseSource: no datasheet bandwidth is known for CPUs.
inline constexpr std::string_view kNoCpuBandwidthPromise = "none: no datasheet bandwidth for this CPU";

} // namespace napkin
