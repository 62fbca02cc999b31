// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/allocator_block_table.h"

#include <algorithm>

namespace napkin {

AllocatorBlockTable::AllocatorBlockTable() {
    blocks_.reserve(64);
    freeSlots_.reserve(64);
}

std::vector<AllocatorSegment> AllocatorBlockTable::segments() const {
    std::vector<AllocatorSegment> list;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
        const AllocatorBlockEntry& head = blocks_[i];
        if (!head.live || !head.mapped || (head.prev >= 0 && (*this)[head.prev].mapped))
            continue;
        AllocatorSegment s;
        s.address = head.address;
        s.large = !head.small;
        s.expandable = head.expandable;
        for (int b = static_cast<int>(i); b >= 0 && (*this)[b].mapped; b = (*this)[b].next) {
            const AllocatorBlockEntry& k = (*this)[b];
            s.blocks.push_back({k.size, k.requested, k.allocated});
            s.sizeBytes += k.size;
        }
        list.push_back(std::move(s));
    }
    std::sort(list.begin(), list.end(),
              [](const AllocatorSegment& a, const AllocatorSegment& b) { return a.address < b.address; });
    return list;
}

} // namespace napkin
