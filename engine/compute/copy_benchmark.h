// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Host<->device copy benchmark and the lecture's allocation sanity check: the plain result types and
// the pure rules (size lists, summaries, the datasheet promise). The measuring itself lives in
// engine/cuda/cuda_copy_benchmark.cpp, reached through engine/cuda/cuda_copy_factory.h.
#include "engine/hardware/gpu_catalog.h"
#include "engine/numerics/timing_summary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

enum class CopyDirection { hostToDevice, deviceToHost };
enum class HostMemory { pageable, pinned };
std::string_view copyDirectionName(CopyDirection d); ///< "h2d", "d2h"
std::string_view hostMemoryName(HostMemory m);       ///< "pageable", "pinned"

struct CopyCase {
    CopyDirection direction = CopyDirection::hostToDevice;
    HostMemory hostMemory = HostMemory::pageable;
    std::uint64_t bytes = 0;
};

struct CopyResult {
    CopyCase copy;
    bool ok = false;
    std::string error; ///< why the case failed (allocation, driver); empty when ok
    TimingSummary timing;
    double bytesPerSecond = 0;                    ///< bytes / median seconds
    std::optional<double> promisedBytesPerSecond; ///< the datasheet's host link, per direction
    int warmupRuns = 0;
};

struct CopySweep {
    std::string deviceName;
    std::string catalogId;                        ///< empty when the device is not in the catalog
    std::optional<double> promisedBytesPerSecond; ///< per direction; absent: "no promise"
    std::string promiseSource;
    std::vector<CopyResult> results;
};

struct CopyRunOptions {
    int repeats = 11;
    int warmupRuns = 2;
};

/// 4 KiB, 16 KiB, ..., 1 GiB (powers of 4).
std::vector<std::uint64_t> defaultCopySizes();
/// Largest size one case may ask for (device and two host buffers of it are allocated).
constexpr std::uint64_t kMaxCopyBytes = std::uint64_t{4} << 30;
/// "4K,1M,64MiB,1G,512": whole bytes with optional binary suffix K/KiB, M/MiB, G/GiB (1K = 1024).
/// Throws std::invalid_argument naming the bad item (empty, zero, fractional, above 4 GiB).
std::vector<std::uint64_t> parseCopySizes(const std::string& text);
/// Every size in both directions with both host memories: size-major, h2d before d2h, pageable first.
std::vector<CopyCase> copyCases(const std::vector<std::uint64_t>& sizes);
/// Fills timing and bytes/s from the per-repeat seconds; a median of 0 gives 0 bytes/s (not inf).
void summarizeCopy(CopyResult& result, std::vector<double> seconds);
/// The per-direction host-link promise of catalog entry `catalogId`, with its source; nullopt when the
/// id is unknown or its datasheet gives none.
std::optional<double> hostLinkPromise(const GpuCatalog& catalog, std::string_view catalogId,
                                      std::string* source = nullptr);

/// The lecture's sanity check: two 32x32 fp32 tensors on the device.
struct AllocCheck {
    std::string deviceName;
    double expectedBytes = 0;        ///< 2 * 32 * 32 * 4 = 8192
    double allocatorBytes = 0;       ///< what the accounting allocator (MemoryLedger) holds afterwards
    double memGetInfoDeltaBytes = 0; ///< cudaMemGetInfo free before - after (coarse granularity)
    double allocatorBytesBefore = 0; ///< the ledger before the tensors (0: a fresh ledger)
    double freeBytesBefore = 0, freeBytesAfter = 0; ///< cudaMemGetInfo's free bytes around the allocations
};
constexpr int kAllocCheckTensors = 2;
constexpr int kAllocCheckSide = 32;
/// count tensors of rows x cols elements of `elementBytes` each.
double tensorsBytes(int count, int rows, int cols, int elementBytes);

} // namespace napkin
