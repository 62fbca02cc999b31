// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/free_block_index.h"

#include <algorithm>
#include <iterator>

namespace napkin {

FreeBlockIndex::FreeBlockIndex()
    : runs_(1) {
    runs_.front().reserve(32);
}

void FreeBlockIndex::splitRun(std::size_t r) {
    std::vector<FreeBlockKey>& run = runs_[r];
    std::vector<FreeBlockKey> upper;
    upper.reserve(2 * kFreeBlockChunk + 1);
    const auto half = run.begin() + static_cast<std::ptrdiff_t>(kFreeBlockChunk);
    upper.assign(std::make_move_iterator(half), std::make_move_iterator(run.end()));
    run.erase(half, run.end());
    runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(r + 1), std::move(upper));
}

} // namespace napkin
