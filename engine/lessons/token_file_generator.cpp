// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lessons/token_file_generator.h"

#include "engine/io/atomic_file.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace napkin {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

std::int32_t demoTokenAt(std::uint64_t index, std::uint64_t seed, TokenType type) {
    const std::uint64_t h = splitmix64(index ^ splitmix64(seed));
    return type == TokenType::uint16 ? static_cast<std::int32_t>(h % 50257)
                                     : static_cast<std::int32_t>(h % 2147483647);
}

void writeDemoTokenFile(const std::string& path, std::uint64_t tokens, TokenType type, std::uint64_t seed,
                        const std::function<bool(double)>& progress) {
    if (tokens == 0)
        throw std::runtime_error("a demo token file needs at least one token");
    AtomicFile file(path);
    const std::size_t width = tokenBytes(type);
    constexpr std::uint64_t kChunkTokens = 1 << 20;
    std::vector<unsigned char> chunk(kChunkTokens * width);
    for (std::uint64_t start = 0; start < tokens; start += kChunkTokens) {
        const std::uint64_t count = std::min(kChunkTokens, tokens - start);
        for (std::uint64_t i = 0; i < count; ++i) {
            const auto v = static_cast<std::uint32_t>(demoTokenAt(start + i, seed, type));
            for (std::size_t b = 0; b < width; ++b) // little-endian, whatever the host
                chunk[i * width + b] = static_cast<unsigned char>(v >> (8 * b));
        }
        file.write(chunk.data(), count * width);
        if (progress && !progress(static_cast<double>(start + count) / static_cast<double>(tokens)))
            throw std::runtime_error("cancelled");
    }
    // Written pages stay in the page cache; drop them so the lesson's mapping starts cold.
    file.commit(/*dropFromPageCache=*/true);
}

DatasetSizing sizeDataset(double bytes, TokenType type, long batch, long context, double pageBytes) {
    DatasetSizing s;
    const auto width = static_cast<double>(tokenBytes(type));
    s.bytes = bytes;
    s.tokens = std::floor(bytes / width);
    s.pages = std::ceil(bytes / pageBytes);
    s.batchBytes = static_cast<double>(batch) * static_cast<double>(context) * width;
    s.batchPagesAtMost =
        static_cast<double>(batch) * (std::ceil(static_cast<double>(context) * width / pageBytes) + 1);
    return s;
}

} // namespace napkin
