// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CRC-32 (IEEE 802.3, the polynomial zip, PNG and zlib use): the checksum over a checkpoint's payload, so
// a flipped or overwritten byte is caught before the file is trusted.
#include <cstddef>
#include <cstdint>

namespace napkin {

/// CRC-32 of `bytes` bytes at `data`, continuing from `crc` (0 to start). crc32("123456789") = 0xCBF43926.
std::uint32_t crc32(const void* data, std::size_t bytes, std::uint32_t crc = 0);

} // namespace napkin
