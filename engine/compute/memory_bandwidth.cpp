// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/memory_bandwidth.h"

#include "engine/text/name_table.h"
#include "engine/numerics/quantity_format.h"
#include "engine/numerics/size_list.h"

#include <algorithm>
#include <stdexcept>

namespace napkin {

namespace {
constexpr NameTable<BandwidthMethod, 2> kMethodNames{
    {{BandwidthMethod::triad, "triad a[i] = b[i] + s·c[i], fp64"},
     {BandwidthMethod::deviceCopy, "cudaMemcpy device-to-device"}}};
constexpr std::uint64_t kFp64Bytes = 8;
} // namespace

std::string bandwidthMethodName(BandwidthMethod method) {
    return std::string(nameIn(kMethodNames, method));
}

std::string byteConvention(BandwidthMethod method) {
    if (method == BandwidthMethod::triad)
        return "STREAM's: 3 arrays × 8 bytes per element per iteration (2 reads + 1 write); the "
               "write-allocate "
               "read of a is not counted";
    return "2 × bytes copied (one read + one write of every byte)";
}

double bytesMovedPerRun(BandwidthMethod method, std::uint64_t bytesPerArray) {
    const double arrays = method == BandwidthMethod::triad ? 3.0 : 2.0;
    return arrays * static_cast<double>(bytesPerArray);
}

std::uint64_t wholeFp64Bytes(std::uint64_t bytes) {
    return bytes / kFp64Bytes * kFp64Bytes;
}

std::uint64_t defaultBytesPerArray(std::optional<std::uint64_t> lastLevelCacheBytes) {
    const std::uint64_t fourCaches = lastLevelCacheBytes ? 4 * *lastLevelCacheBytes : 0;
    return wholeFp64Bytes(std::max(fourCaches, kMinDefaultBytesPerArray));
}

std::string defaultBytesPerArrayRule(std::optional<std::uint64_t> lastLevelCacheBytes) {
    const std::string result =
        formatBytes(static_cast<double>(defaultBytesPerArray(lastLevelCacheBytes)), ByteUnits::binary);
    if (!lastLevelCacheBytes)
        return "256 MiB per array (the last-level cache size is unknown)";
    return "max(4 × last-level cache " +
           formatBytes(static_cast<double>(*lastLevelCacheBytes), ByteUnits::binary) +
           ", 256 MiB) = " + result + " per array";
}

std::uint64_t parseBytesPerArray(const std::string& text) {
    SizeListRules rules;
    rules.unit = SizeUnit::bytes;
    rules.minimum = static_cast<double>(kFp64Bytes);
    rules.maximum = static_cast<double>(kMaxBytesPerArray);
    const SizeList list = parseSizeList(text, rules);
    if (!list.ok())
        throw std::invalid_argument(list.error);
    if (list.sizes.size() != 1)
        throw std::invalid_argument("one size, not a list: '" + text + "'");
    return static_cast<std::uint64_t>(list.sizes.front());
}

void summarizeBandwidth(MemoryBandwidthResult& result, std::vector<double> seconds) {
    result.timing = summarizeTimings(std::move(seconds));
    result.bytesPerSecond =
        result.timing.medianSeconds > 0 ? result.bytesMovedPerRun / result.timing.medianSeconds : 0.0;
}

std::optional<double> deviceMemoryPromise(const GpuCatalog& catalog, std::string_view catalogId,
                                          std::string* source) {
    const GpuSpec* gpu = catalogId.empty() ? nullptr : catalog.find(catalogId);
    if (!gpu || gpu->memoryBandwidthBytesPerSecond <= 0)
        return std::nullopt;
    if (source)
        *source = "datasheet: " + gpu->source;
    return gpu->memoryBandwidthBytesPerSecond;
}

} // namespace napkin
