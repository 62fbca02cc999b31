// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/io/crc32.h"

#include <array>

namespace napkin {
namespace {

// The reflected table of polynomial 0xEDB88320, built once at compile time. zlib has the same function,
// but one more package for these few lines is not worth it; the test checks the standard check value.
constexpr std::array<std::uint32_t, 256> makeTable() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    return table;
}

constexpr std::array<std::uint32_t, 256> kTable = makeTable();

} // namespace

std::uint32_t crc32(const void* data, std::size_t bytes, std::uint32_t crc) {
    const auto* p = static_cast<const unsigned char*>(data);
    crc = ~crc;
    for (std::size_t i = 0; i < bytes; ++i)
        crc = kTable[(crc ^ p[i]) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

} // namespace napkin
