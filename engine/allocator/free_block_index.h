// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A pool's free blocks in the order the caching allocator searches them: by (size, address), as PyTorch's
// BlockComparatorSize orders its std::set<Block*> (c10/cuda/CUDACachingAllocator.cpp, pytorch/pytorch at
// 001074d25084fdb87a799823e395a50f5ec044d3); with every size key 0, by address alone (BlockComparatorAddress,
// the unmapped ranges of expandable segments). Flat: sorted runs of at most kFreeBlockChunk keys in
// contiguous memory, so that a lookup is two binary searches and an insertion or removal moves a few dozen
// keys, with no allocation once the runs have grown; a pool of n blocks still costs O(log n + chunk) per
// change, O(n / chunk) when a run splits or empties, where one sorted vector would move all n.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#ifndef NAPKIN_FREE_BLOCK_CHUNK
#define NAPKIN_FREE_BLOCK_CHUNK 16 // a run splits in two above twice this
#endif

namespace napkin {

inline constexpr std::size_t kFreeBlockChunk = NAPKIN_FREE_BLOCK_CHUNK;

/// One free block: its ordering key and its index in the simulation's block table.
struct FreeBlockKey {
    std::uint64_t size = 0;
    std::uint64_t address = 0;
    int block = -1;
};

class FreeBlockIndex {
public:
    /// Where a key lies: a run and the key's place in it; end() is one past the last run.
    struct Position {
        std::size_t run = 0, index = 0;
        bool operator==(const Position&) const = default;
    };

    FreeBlockIndex();

    bool empty() const { return runs_.front().empty(); } ///< only a sole run is ever empty
    Position begin() const { return normalized({0, 0}); }
    Position end() const { return {runs_.size(), 0}; }
    Position next(Position p) const { return normalized({p.run, p.index + 1}); }
    const FreeBlockKey& at(Position p) const { return runs_[p.run][p.index]; }
    const FreeBlockKey& back() const {
        return runs_.back().back();
    } ///< the largest key; precondition: !empty()

    // Inline, as every call of the replay's inner loop is one of these (a call into the shared library
    // through its PLT cost as much as the search).
    /// The first key not below (size, address): std::set::lower_bound.
    Position lowerBound(std::uint64_t size, std::uint64_t address) const {
        if (empty())
            return end();
        const std::size_t r = runFor(size, address);
        if (r == runs_.size())
            return end();
        const std::vector<FreeBlockKey>& run = runs_[r];
        return {r, static_cast<std::size_t>(std::partition_point(run.begin(), run.end(),
                                                                 [&](const FreeBlockKey& k) {
                                                                     return below(k, size, address);
                                                                 }) -
                                            run.begin())};
    }
    /// Adds `key`; false (and nothing added) where a key of the same size and address is there.
    bool insert(const FreeBlockKey& key) {
        if (empty()) {
            runs_.front().push_back(key);
            return true;
        }
        const std::size_t r = std::min(runFor(key.size, key.address), runs_.size() - 1);
        std::vector<FreeBlockKey>& run = runs_[r];
        const auto at = std::partition_point(
            run.begin(), run.end(), [&](const FreeBlockKey& k) { return below(k, key.size, key.address); });
        if (at != run.end() && at->size == key.size && at->address == key.address)
            return false;
        run.insert(at, key);
        if (run.size() > 2 * kFreeBlockChunk)
            splitRun(r);
        return true;
    }
    /// Removes the key of this size and address; false where there is none.
    bool erase(std::uint64_t size, std::uint64_t address) {
        const Position p = lowerBound(size, address);
        if (p == end() || at(p).size != size || at(p).address != address)
            return false;
        eraseAt(p);
        return true;
    }
    void eraseAt(Position p) {
        std::vector<FreeBlockKey>& run = runs_[p.run];
        run.erase(run.begin() + static_cast<std::ptrdiff_t>(p.index));
        if (run.empty() && runs_.size() > 1)
            runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(p.run));
    }

    /// Every block's index, in key order.
    template <typename Visit> void forEach(Visit visit) const {
        for (const std::vector<FreeBlockKey>& run : runs_)
            for (const FreeBlockKey& key : run)
                visit(key.block);
    }

private:
    Position normalized(Position p) const {
        return p.run < runs_.size() && p.index == runs_[p.run].size() ? Position{p.run + 1, 0} : p;
    }
    static bool below(const FreeBlockKey& k, std::uint64_t size, std::uint64_t address) {
        return k.size != size ? k.size < size : k.address < address;
    }
    /// The first run whose largest key is not below (size, address); runs_.size() where none is.
    std::size_t runFor(std::uint64_t size, std::uint64_t address) const {
        if (runs_.size() == 1) // the common case: a pool of a few dozen free blocks
            return below(runs_.front().back(), size, address) ? 1 : 0;
        return static_cast<std::size_t>(
            std::partition_point(runs_.begin(), runs_.end(),
                                 [&](const std::vector<FreeBlockKey>& r) { return below(r.back(), size, address); }) -
            runs_.begin());
    }
    /// Run `r`, grown past twice kFreeBlockChunk, split in two: its upper half becomes the next run.
    void splitRun(std::size_t r);

    std::vector<std::vector<FreeBlockKey>> runs_; ///< each sorted and non-empty (but a sole one), in order
};

} // namespace napkin
