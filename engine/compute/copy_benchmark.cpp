// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/copy_benchmark.h"

#include "engine/text/name_table.h"
#include "engine/numerics/size_list.h"

#include <stdexcept>

namespace napkin {

namespace {
constexpr NameTable<CopyDirection, 2> kDirectionNames{
    {{CopyDirection::hostToDevice, "h2d"}, {CopyDirection::deviceToHost, "d2h"}}};
constexpr NameTable<HostMemory, 2> kHostMemoryNames{
    {{HostMemory::pageable, "pageable"}, {HostMemory::pinned, "pinned"}}};
} // namespace

std::string_view copyDirectionName(CopyDirection d) {
    return nameIn(kDirectionNames, d);
}

std::string_view hostMemoryName(HostMemory m) {
    return nameIn(kHostMemoryNames, m);
}

std::vector<std::uint64_t> defaultCopySizes() {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t b = 4096; b <= (std::uint64_t{1} << 30); b *= 4)
        sizes.push_back(b);
    return sizes;
}

std::vector<std::uint64_t> parseCopySizes(const std::string& text) {
    SizeListRules rules;
    rules.unit = SizeUnit::bytes;
    rules.maximum = static_cast<double>(kMaxCopyBytes);
    const SizeList list = parseSizeList(text, rules);
    if (!list.ok())
        throw std::invalid_argument(list.error);
    return {list.sizes.begin(), list.sizes.end()};
}

std::vector<CopyCase> copyCases(const std::vector<std::uint64_t>& sizes) {
    std::vector<CopyCase> cases;
    for (std::uint64_t bytes : sizes)
        for (CopyDirection d : {CopyDirection::hostToDevice, CopyDirection::deviceToHost})
            for (HostMemory m : {HostMemory::pageable, HostMemory::pinned})
                cases.push_back({d, m, bytes});
    return cases;
}

void summarizeCopy(CopyResult& result, std::vector<double> seconds) {
    result.timing = summarizeTimings(std::move(seconds));
    result.bytesPerSecond = result.timing.medianSeconds > 0
                                ? static_cast<double>(result.copy.bytes) / result.timing.medianSeconds
                                : 0.0;
}

std::optional<double> hostLinkPromise(const GpuCatalog& catalog, std::string_view catalogId,
                                      std::string* source) {
    const GpuSpec* gpu = catalogId.empty() ? nullptr : catalog.find(catalogId);
    if (!gpu || !gpu->hostLinkBytesPerSecondPerDirection)
        return std::nullopt;
    if (source)
        *source = gpu->hostLinkSource;
    return gpu->hostLinkBytesPerSecondPerDirection;
}

double tensorsBytes(int count, int rows, int cols, int elementBytes) {
    return static_cast<double>(count) * rows * cols * elementBytes;
}

} // namespace napkin
