// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What torch.cuda.memory_snapshot() lists, as the simulated caching allocator reports it: segments and their
// blocks.
#include <cstdint>
#include <vector>

namespace napkin {

/// One block of a segment, in address order: `sizeBytes` as the allocator rounded it; `requestedBytes` the
/// request it serves (0 for a free block).
struct AllocatorBlock {
    std::uint64_t sizeBytes = 0;
    std::uint64_t requestedBytes = 0;
    bool allocated = false;
    bool operator==(const AllocatorBlock&) const = default;
};

/// A segment as torch.cuda.memory_snapshot() lists one: a cudaMalloc'ed range, or one contiguous mapped range
/// of an expandable segment. `address` is the simulation's (cudaMalloc's own addresses are not predictable):
/// it orders segments as they were made.
struct AllocatorSegment {
    std::uint64_t address = 0;
    std::uint64_t sizeBytes = 0;
    bool large = true; ///< the large pool's (requests above 1 MiB); false: the small pool's
    bool expandable = false;
    std::vector<AllocatorBlock> blocks;
    bool operator==(const AllocatorSegment&) const = default;
};

} // namespace napkin
