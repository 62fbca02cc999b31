// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/allocator_sizes.h"

#include <bit>

namespace napkin {

std::uint64_t allocatorRoundedBytes(std::uint64_t bytes, std::uint64_t divisions) {
    // round_size() and roundup_power2_next_division()
    if (bytes < kAllocatorMinBlockSize)
        return kAllocatorMinBlockSize;
    if (divisions > 1 && bytes > kAllocatorMinBlockSize * divisions) {
        if (std::has_single_bit(bytes))
            return bytes;
        const std::uint64_t floor = std::bit_floor(bytes);
        const std::uint64_t step = floor >> std::countr_zero(divisions); // divisions is a power of two
        if (step == 0)
            return floor << 1;
        const std::uint64_t down = bytes & ~(step - 1);
        return down == bytes ? bytes : down + step;
    }
    return ceilToMultiple(bytes, kAllocatorMinBlockSize);
}

std::uint64_t allocatorSegmentBytes(std::uint64_t size) {
    // get_allocation_size()
    if (size <= kAllocatorSmallSize)
        return kAllocatorSmallBuffer;
    if (size < kAllocatorMinLargeAlloc)
        return kAllocatorLargeBuffer;
    return ceilToMultiple(size, kAllocatorRoundLarge);
}

} // namespace napkin
