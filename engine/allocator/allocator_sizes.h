// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The caching allocator's sizes: its constants, how a request is rounded to a block and how large a new
// segment is made for a block. Each is c10/cuda/CUDACachingAllocator.cpp's (pytorch/pytorch at
// 001074d25084fdb87a799823e395a50f5ec044d3), quoted beside it.
#include <cstdint>

namespace napkin {

// "all sizes are rounded to at least 512 bytes"
inline constexpr std::uint64_t kAllocatorMinBlockSize = 512;
// "largest 'small' allocation is 1 MiB"
inline constexpr std::uint64_t kAllocatorSmallSize = 1048576;
// "'small' allocations are packed in 2 MiB blocks"
inline constexpr std::uint64_t kAllocatorSmallBuffer = 2097152;
// "allocations between 1 and 10 MiB may use kLargeBuffer"
inline constexpr std::uint64_t kAllocatorMinLargeAlloc = 10485760;
// "'large' allocations may be packed in 20 MiB blocks"
inline constexpr std::uint64_t kAllocatorLargeBuffer = 20971520;
// "round up large allocations to 2 MiB"
inline constexpr std::uint64_t kAllocatorRoundLarge = 2097152;

/// Largest request simulated (1 TiB, above any GPU's memory): every sum of sizes and addresses stays far
/// below 2^64 for the longest list.
inline constexpr std::uint64_t kAllocatorMaxRequestBytes = 1ull << 40;

/// ExpandableSegment reserves address space for 1 1/8 of the GPU's memory; without a capacity (and at most),
/// 2 TiB: above the largest request, and small enough that a new one per event cannot overflow addresses.
inline constexpr std::uint64_t kAllocatorMaxAddressSpace = 2 * kAllocatorMaxRequestBytes;

/// `value` rounded up to a multiple of `step`.
inline std::uint64_t ceilToMultiple(std::uint64_t value, std::uint64_t step) {
    return step * ((value + step - 1) / step);
}

/// round_size(): the block size for a request of `bytes` (at least 512; 512-byte multiples, or the
/// roundup_power2_divisions step above 512 · divisions; `divisions` 0 or 1: none).
std::uint64_t allocatorRoundedBytes(std::uint64_t bytes, std::uint64_t divisions);

/// get_allocation_size(): a new segment's size for a block of `size` rounded bytes (no expandable segments).
std::uint64_t allocatorSegmentBytes(std::uint64_t size);

} // namespace napkin
