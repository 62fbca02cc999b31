#include "engine/compute/copy_benchmark.h"

#include <cctype>
#include <sstream>
#include <stdexcept>

namespace napkin {

std::string_view copyDirectionName(CopyDirection d) {
    return d == CopyDirection::hostToDevice ? "h2d" : "d2h";
}

std::string_view hostMemoryName(HostMemory m) {
    return m == HostMemory::pageable ? "pageable" : "pinned";
}

std::vector<std::uint64_t> defaultCopySizes() {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t b = 4096; b <= (std::uint64_t{1} << 30); b *= 4)
        sizes.push_back(b);
    return sizes;
}

namespace {

std::uint64_t parseOneSize(const std::string& item) {
    auto fail = [&](const std::string& why) { return std::invalid_argument("'" + item + "' " + why); };
    std::size_t digits = 0;
    while (digits < item.size() && std::isdigit(static_cast<unsigned char>(item[digits])))
        ++digits;
    if (digits == 0)
        throw fail("is not a size (a whole number of bytes, optionally with K, M or G: 4K, 1M, 1G)");
    if (digits > 12) // more than 4 GiB whatever the suffix; also keeps the multiply below in range
        throw fail("is above the 4 GiB limit");
    const std::uint64_t number = std::stoull(item.substr(0, digits));
    std::string suffix = item.substr(digits);
    for (char& c : suffix)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::uint64_t unit = 0;
    if (suffix.empty() || suffix == "B")
        unit = 1;
    else if (suffix == "K" || suffix == "KIB")
        unit = std::uint64_t{1} << 10;
    else if (suffix == "M" || suffix == "MIB")
        unit = std::uint64_t{1} << 20;
    else if (suffix == "G" || suffix == "GIB")
        unit = std::uint64_t{1} << 30;
    else
        throw fail("has an unknown unit (use K, M or G, binary: 1K = 1024 bytes)");
    if (number == 0)
        throw fail("is zero bytes");
    const std::uint64_t bytes = number * unit;
    if (bytes > kMaxCopyBytes)
        throw fail("is above the 4 GiB limit");
    return bytes;
}

} // namespace

std::vector<std::uint64_t> parseCopySizes(const std::string& text) {
    std::vector<std::uint64_t> sizes;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
        sizes.push_back(parseOneSize(item));
    if (text.empty() || text.back() == ',') // getline drops a trailing empty item
        sizes.push_back(parseOneSize(""));
    return sizes;
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
