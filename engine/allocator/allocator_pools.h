// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The simulated caching allocator's two pools (caching_allocator_simulation.h): each pool's free mapped
// blocks by (size, address), PyTorch's BlockPool::blocks under BlockComparatorSize, and its unmapped ranges
// of expandable segments by address, BlockPool::unmapped under BlockComparatorAddress (c10/cuda/
// CUDACachingAllocator.cpp at 001074d25084fdb87a799823e395a50f5ec044d3). A block is filed under the key it
// has when filed: whoever changes a filed block's size or address takes it out first. Each entry knows
// whether it is filed, so that taking out a block that is not (a block being freed, mapped or unmapped,
// before its neighbours merge into it) costs no search.
#include "engine/allocator/allocator_block_table.h"
#include "engine/allocator/free_block_index.h"

namespace napkin {

class AllocatorPools {
public:
    /// The free mapped blocks of the small pool (`small`) or the large one.
    FreeBlockIndex& freeBlocks(bool small) { return small ? small_ : large_; }
    FreeBlockIndex& unmapped(bool small) { return small ? smallUnmapped_ : largeUnmapped_; }

    /// Files `block` (entry `b`) among its pool's free blocks; unfile() takes it out, false where it was not
    /// in.
    void file(AllocatorBlockEntry& b, int block) {
        b.filed = freeBlocks(b.small).insert({b.size, b.address, block});
    }
    bool unfile(AllocatorBlockEntry& b) {
        if (!b.filed)
            return false;
        b.filed = false;
        return freeBlocks(b.small).erase(b.size, b.address);
    }
    /// As file() and unfile(), among the unmapped ranges (size key 0: by address alone).
    void fileUnmapped(AllocatorBlockEntry& b, int block) {
        b.filedUnmapped = unmapped(b.small).insert({0, b.address, block});
    }
    bool unfileUnmapped(AllocatorBlockEntry& b) {
        if (!b.filedUnmapped)
            return false;
        b.filedUnmapped = false;
        return unmapped(b.small).erase(0, b.address);
    }

private:
    FreeBlockIndex small_, large_, smallUnmapped_, largeUnmapped_;
};

} // namespace napkin
