// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The caching allocator simulation's live allocations: the caller's id → the block that serves it. Ids below
// kDenseAllocationIds (stepAllocations() numbers its allocations 1, 2, …) are a flat table indexed by id,
// with no node per allocation; larger ids, which no step makes, go to a hash map.
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace napkin {

/// Ids the flat table holds (4 Mi: 16 MiB at most, as many as the longest event list replayed).
inline constexpr std::uint64_t kDenseAllocationIds = 1ull << 22;

class LiveAllocations {
public:
    static constexpr int kNotLive = -2; ///< what find() says of an id with no allocation
    static constexpr int kNoBlock = -1; ///< a live request of 0 bytes: no block

    int find(std::uint64_t id) const { // inline: one call per malloc() and free() replayed
        if (id < kDenseAllocationIds)
            return id < dense_.size() ? dense_[static_cast<std::size_t>(id)] : kNotLive;
        return findSparse(id);
    }
    bool contains(std::uint64_t id) const { return find(id) != kNotLive; }
    /// `id` now holds `block` (kNoBlock for a 0-byte request). Precondition: !contains(id).
    void add(std::uint64_t id, int block) {
        if (id < dense_.size())
            dense_[static_cast<std::size_t>(id)] = block;
        else
            addBeyond(id, block);
    }
    /// Forgets `id`. Precondition: contains(id).
    void remove(std::uint64_t id) {
        if (id < kDenseAllocationIds)
            dense_[static_cast<std::size_t>(id)] = kNotLive;
        else
            sparse_.erase(id);
    }

private:
    int findSparse(std::uint64_t id) const;
    void addBeyond(std::uint64_t id, int block); ///< the table grown, or the map
    std::vector<int> dense_; ///< by id; kNotLive where none
    std::unordered_map<std::uint64_t, int> sparse_;
};

} // namespace napkin
