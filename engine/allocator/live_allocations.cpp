// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/live_allocations.h"

#include <algorithm>

namespace napkin {

int LiveAllocations::findSparse(std::uint64_t id) const {
    const auto found = sparse_.find(id);
    return found == sparse_.end() ? kNotLive : found->second;
}

void LiveAllocations::addBeyond(std::uint64_t id, int block) {
    if (id >= kDenseAllocationIds) {
        sparse_[id] = block;
        return;
    }
    if (id >= dense_.size()) // grown by doubling: O(1) amortized per allocation
        dense_.resize(
            std::min<std::size_t>(kDenseAllocationIds, std::max<std::size_t>(id + 1, 2 * dense_.size() + 64)),
            kNotLive);
    dense_[static_cast<std::size_t>(id)] = block;
}

} // namespace napkin
