// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The simulated caching allocator's blocks (caching_allocator_simulation.h), free and allocated, mapped and
// not: one flat table whose entries link each block to its neighbours in its segment, so that a block is an
// index and a freed entry is reused, with no allocation per block once the table has grown.
#include "engine/allocator/allocator_segment.h"

#include <cstdint>
#include <vector>

namespace napkin {

/// One block: PyTorch's `Block` (c10/cuda/CUDACachingAllocator.cpp), its prev/next as indices.
struct AllocatorBlockEntry {
    std::uint64_t address = 0, size = 0, requested = 0;
    int prev = -1, next = -1; ///< neighbours within the segment, in address order
    bool allocated = false, small = false, mapped = true, expandable = false, live = true;
    bool filed = false,
         filedUnmapped = false; ///< in its pool's free blocks, or unmapped ranges (allocator_pools.h)
    int expandableSegment = -1; ///< which expandable segment (the simulation's list of their bases)
};

class AllocatorBlockTable {
public:
    AllocatorBlockTable();

    AllocatorBlockEntry& operator[](int i) { return blocks_[static_cast<std::size_t>(i)]; }
    const AllocatorBlockEntry& operator[](int i) const { return blocks_[static_cast<std::size_t>(i)]; }
    /// A new entry holding `b` (a freed one reused first), filed nowhere yet; its index.
    int add(const AllocatorBlockEntry& b) { // inline, as the replay's inner loop calls it
        int i = 0;
        if (!freeSlots_.empty()) {
            i = freeSlots_.back();
            freeSlots_.pop_back();
            (*this)[i] = b;
        } else {
            i = static_cast<int>(blocks_.size());
            blocks_.push_back(b);
        }
        (*this)[i].filed = (*this)[i].filedUnmapped = false; // a copy of a filed block is not filed
        return i;
    }
    /// The entry is no longer a block; its index may be reused.
    void drop(int i) {
        (*this)[i].live = false;
        freeSlots_.push_back(i);
    }

    /// snapshot(): one segment per cudaMalloc, and per contiguous mapped range of an expandable segment, in
    /// address order, each with its blocks.
    std::vector<AllocatorSegment> segments() const;

private:
    std::vector<AllocatorBlockEntry> blocks_;
    std::vector<int> freeSlots_;
};

} // namespace napkin
