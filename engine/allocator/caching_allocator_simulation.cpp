// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/caching_allocator_simulation.h"

#include "engine/numerics/work_counts.h"

#include <algorithm>

// Each rule below names the function of c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch at
// 001074d25084fdb87a799823e395a50f5ec044d3) it follows.
namespace napkin {

CachingAllocatorSimulation::CachingAllocatorSimulation(AllocatorConfig config, std::uint64_t capacityBytes)
    : config_(config)
    , capacity_(capacityBytes) {}

bool CachingAllocatorSimulation::canReserve(std::uint64_t bytes) const {
    return capacity_ == 0 || reserved_ + bytes <= capacity_;
}

void CachingAllocatorSimulation::reserve(std::int64_t bytes) {
    reserved_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(reserved_) + bytes);
    peakReserved_ = std::max(peakReserved_, reserved_);
}

void CachingAllocatorSimulation::resetPeaks() {
    peakReserved_ = reserved_;
    peakAllocated_ = allocated_;
}

bool CachingAllocatorSimulation::shouldSplit(int block, std::uint64_t size) const {
    // should_split(): the small pool and expandable segments split off any remainder of at least 512 B; the
    // large pool only a remainder above 1 MiB, and never a block taken for a request of max_split_size or more.
    const AllocatorBlockEntry& b = at(block);
    const std::uint64_t remaining = b.size - size;
    if (b.small || config_.expandableSegments)
        return remaining >= kAllocatorMinBlockSize;
    return size < config_.maxSplitSizeBytes && remaining > kAllocatorSmallSize;
}

int CachingAllocatorSimulation::getFreeBlock(bool small, std::uint64_t size) {
    // get_free_block(): best fit, the smallest free block of at least `size` (the lowest address among equals)
    FreeBlockIndex& pool = pools_.freeBlocks(small);
    const FreeBlockIndex::Position end = pool.end();
    FreeBlockIndex::Position it = pool.lowerBound(size, 0);
    if (it == end)
        return -1;
    const auto blockAt = [&pool](FreeBlockIndex::Position p) { return pool.at(p).block; };
    const auto expandableSize = [this](int i) {
        const AllocatorBlockEntry& b = at(i);
        const bool unmappedNext = b.next >= 0 && !at(b.next).mapped;
        return b.size + (unmappedNext ? at(b.next).size : 0);
    };
    if (at(blockAt(it)).expandable) {
        if (config_.expandableSegments) {
            // A block that can grow into unmapped pages counts as the size it can grow to, so a fitting
            // block that cannot grow is taken first.
            FreeBlockIndex::Position next = pool.next(it);
            while (at(blockAt(it)).expandable && next != end &&
                   expandableSize(blockAt(next)) < expandableSize(blockAt(it))) {
                it = next;
                next = pool.next(next);
            }
        } else {
            do
                it = pool.next(it);
            while (it != end && at(blockAt(it)).expandable);
            if (it == end)
                return -1;
        }
    }
    const std::uint64_t found = pool.at(it).size;
    const std::uint64_t maxSplit = config_.maxSplitSizeBytes;
    if (size < maxSplit && found >= maxSplit)
        return -1; // "Do not return an oversized block for a large request"
    if (size >= maxSplit && found >= size + kAllocatorLargeBuffer)
        return -1; // "Allow oversized block size to be rounded up but within a limit"
    const int block = blockAt(it);
    pool.eraseAt(it);
    at(block).filed = false;
    return block;
}

int CachingAllocatorSimulation::allocBlock(bool small, std::uint64_t size) {
    // alloc_block(): a new segment (cudaMalloc), or with expandable segments more pages mapped
    if (config_.expandableSegments)
        return tryAllocateExpandable(small, size);
    const std::uint64_t bytes = segmentBytes(size);
    if (!canReserve(bytes))
        return -1;
    AllocatorBlockEntry b;
    b.address = nextAddress_;
    b.size = bytes;
    b.small = small;
    // segments are apart: none merges with another
    nextAddress_ += ceilToMultiple(bytes, kAllocatorRoundLarge) + kAllocatorRoundLarge;
    reserve(static_cast<std::int64_t>(bytes));
    return blocks_.add(b);
}

int CachingAllocatorSimulation::findExpandableBlock(bool small, std::uint64_t size) {
    // find_expandable_block(): the lowest-addressed unmapped range (with the free block just before it) that,
    // with the free or unmapped blocks after it, holds `size`; else a new segment of unmapped address space.
    FreeBlockIndex& unmapped = pools_.unmapped(small);
    const auto allocatable = [this](int i) { return i >= 0 && !at(i).allocated; };
    for (FreeBlockIndex::Position p = unmapped.begin(); p != unmapped.end(); p = unmapped.next(p)) {
        const int u = unmapped.at(p).block;
        int c = u;
        if (allocatable(at(u).prev))
            c = at(u).prev;
        std::uint64_t bytes = 0;
        for (int b = c; bytes < size && allocatable(b); b = at(b).next)
            bytes += at(b).size;
        if (bytes >= size)
            return c;
    }
    const std::uint64_t page = small ? kAllocatorSmallBuffer : kAllocatorLargeBuffer;
    const std::uint64_t wanted = capacity_ > 0 && capacity_ < kAllocatorMaxAddressSpace ? capacity_ + capacity_ / 8
                                                                                : kAllocatorMaxAddressSpace;
    const std::uint64_t space = ceilToMultiple(std::min(wanted, kAllocatorMaxAddressSpace), page);
    if (size > space)
        return -1; // more than the device's address space: out of memory
    AllocatorBlockEntry b;
    b.address = ceilToMultiple(nextAddress_, page);
    b.size = space;
    b.small = small;
    b.mapped = false;
    b.expandable = true;
    b.expandableSegment = static_cast<int>(expandableBases_.size());
    expandableBases_.push_back(b.address);
    nextAddress_ = b.address + space + page;
    const int i = blocks_.add(b);
    pools_.fileUnmapped(at(i), i);
    return i;
}

bool CachingAllocatorSimulation::mapBlock(int toMap, std::uint64_t size) {
    // map_block(): whole pages from the block's start to cover `size`; the rest stays unmapped after it
    const AllocatorBlockEntry& m = at(toMap);
    const std::uint64_t page = m.small ? kAllocatorSmallBuffer : kAllocatorLargeBuffer;
    const std::uint64_t mapped = std::min(ceilToMultiple(size, page), m.size);
    if (!canReserve(mapped))
        return false;
    pools_.unfileUnmapped(at(toMap));
    if (mapped < m.size) {
        AllocatorBlockEntry rest = m;
        rest.address = m.address + mapped;
        rest.size = m.size - mapped;
        rest.prev = toMap;
        const int r = blocks_.add(rest); // m is a reference into blocks_: re-read it below
        AllocatorBlockEntry& again = at(toMap);
        if (again.next >= 0)
            at(again.next).prev = r;
        again.next = r;
        again.size = mapped;
        pools_.fileUnmapped(at(r), r);
    }
    at(toMap).mapped = true;
    tryMergeBlocks(toMap, at(toMap).prev);
    tryMergeBlocks(toMap, at(toMap).next);
    pools_.file(at(toMap), toMap);
    reserve(static_cast<std::int64_t>(mapped));
    return true;
}

int CachingAllocatorSimulation::tryAllocateExpandable(bool small, std::uint64_t size) {
    // try_allocate_expandable_block()
    int candidate = findExpandableBlock(small, size);
    if (candidate < 0)
        return -1;
    {
        const AllocatorBlockEntry& c = at(candidate);
        if (!c.mapped && !mapBlock(candidate, std::min(c.size, size)))
            return -1;
    }
    while (at(candidate).size < size) {
        const AllocatorBlockEntry& c = at(candidate);
        const int next = c.next;
        const std::uint64_t remaining = size - c.size;
        if (next < 0 || at(next).mapped)
            return -1; // find_expandable_block() vouched for the space; a guard, not a rule
        if (!mapBlock(next, std::min(remaining, at(next).size)))
            return -1;
        candidate = next; // map_block merged the candidate into it
    }
    pools_.unfile(at(candidate));
    return candidate;
}

std::uint64_t CachingAllocatorSimulation::tryMergeBlocks(int dst, int src) {
    // try_merge_blocks(): a free neighbour in the same state (mapped or not) is absorbed
    if (src < 0)
        return 0;
    if (at(src).allocated || at(src).mapped != at(dst).mapped)
        return 0;
    if (at(src).mapped)
        pools_.unfile(at(src));
    else
        pools_.unfileUnmapped(at(src));
    const bool dstInBlocks = at(dst).mapped && pools_.unfile(at(dst)); // its key changes below
    const bool dstInUnmapped = !at(dst).mapped && pools_.unfileUnmapped(at(dst));
    const AllocatorBlockEntry& s = at(src);
    AllocatorBlockEntry& d = at(dst);
    if (d.prev == src) { // [src dst]
        d.address = s.address;
        d.prev = s.prev;
        if (d.prev >= 0)
            at(d.prev).next = dst;
    } else { // [dst src]
        d.next = s.next;
        if (d.next >= 0)
            at(d.next).prev = dst;
    }
    const std::uint64_t subsumed = s.size;
    d.size += subsumed;
    if (dstInBlocks)
        pools_.file(at(dst), dst);
    if (dstInUnmapped)
        pools_.fileUnmapped(at(dst), dst);
    blocks_.drop(src);
    return subsumed;
}

void CachingAllocatorSimulation::releaseBlock(int block) {
    // release_block(): cudaFree of a whole free segment
    pools_.unfile(at(block));
    reserve(-static_cast<std::int64_t>(at(block).size));
    blocks_.drop(block);
}

void CachingAllocatorSimulation::unmapBlock(int block) {
    // unmap_block(): the whole pages inside a free block of an expandable segment are unmapped
    const AllocatorBlockEntry b = at(block);
    const std::uint64_t page = b.small ? kAllocatorSmallBuffer : kAllocatorLargeBuffer;
    const std::uint64_t base = expandableBases_[static_cast<std::size_t>(b.expandableSegment)];
    const std::uint64_t begin = base + ceilToMultiple(b.address - base, page);
    const std::uint64_t end = base + (b.address + b.size - base) / page * page;
    if (begin >= end)
        return;
    pools_.unfile(at(block));
    if (begin > b.address) { // prev? -> before -> block
        AllocatorBlockEntry before = b;
        before.size = begin - b.address;
        before.next = block;
        const int i = blocks_.add(before);
        if (before.prev >= 0)
            at(before.prev).next = i;
        at(block).prev = i;
        pools_.file(at(i), i);
    }
    if (b.address + b.size > end) { // block -> after -> next?
        AllocatorBlockEntry after = b;
        after.address = end;
        after.size = b.address + b.size - end;
        after.prev = block;
        after.next = at(block).next;
        const int i = blocks_.add(after);
        if (after.next >= 0)
            at(after.next).prev = i;
        at(block).next = i;
        pools_.file(at(i), i);
    }
    AllocatorBlockEntry& u = at(block);
    u.address = begin;
    u.size = end - begin;
    u.mapped = false;
    tryMergeBlocks(block, u.prev);
    tryMergeBlocks(block, at(block).next);
    pools_.fileUnmapped(at(block), block);
    reserve(-static_cast<std::int64_t>(end - begin));
}

bool CachingAllocatorSimulation::releaseAvailableCachedBlocks(bool small, std::uint64_t size) {
    // release_available_cached_blocks(): with max_split_size set, cudaFree the smallest oversize free block
    // that covers the request, else the largest oversize ones until their sizes do
    if (config_.maxSplitSizeBytes == kAllocatorNoMaxSplit)
        return false;
    FreeBlockIndex& pool = pools_.freeBlocks(small);
    const std::uint64_t wanted = std::max(size, config_.maxSplitSizeBytes);
    const FreeBlockIndex::Position it = pool.lowerBound(wanted, 0);
    if (it != pool.end()) {
        releaseBlock(pool.at(it).block);
        return true;
    }
    std::uint64_t released = 0;
    while (released < wanted && !pool.empty()) {
        const int largest = pool.back().block;
        if (at(largest).size < config_.maxSplitSizeBytes)
            break;
        released += at(largest).size;
        releaseBlock(largest);
    }
    return released >= wanted;
}

void CachingAllocatorSimulation::emptyCache() {
    // release_cached_blocks() → release_blocks() for each pool: unsplit free segments are cudaFree'd; free
    // blocks of expandable segments lose their whole pages, and a segment left wholly unmapped is released.
    for (const bool small : {false, true}) {
        std::vector<int> toUnmap;
        std::vector<int> toRelease;
        pools_.freeBlocks(small).forEach([&](int i) {
            const AllocatorBlockEntry& b = at(i);
            if (b.expandable)
                toUnmap.push_back(i);
            else if (b.prev < 0 && b.next < 0)
                toRelease.push_back(i);
        });
        for (const int i : toRelease)
            releaseBlock(i);
        for (const int i : toUnmap) {
            unmapBlock(i);
            const AllocatorBlockEntry& b = at(i);
            if (!b.mapped && b.prev < 0 && b.next < 0) { // release_expandable_segment()
                pools_.unfileUnmapped(at(i));
                blocks_.drop(i);
            }
        }
    }
}

std::string CachingAllocatorSimulation::allocate(std::uint64_t id, std::uint64_t bytes) {
    ++workCounts().allocatorEvents;
    if (live_.contains(id))
        return "allocation " + std::to_string(id) + " is already live";
    if (bytes == 0) {
        live_.add(id, LiveAllocations::kNoBlock);
        return {};
    }
    if (bytes > kAllocatorMaxRequestBytes)
        return "a request of " + std::to_string(bytes) + " B: above the " + std::to_string(kAllocatorMaxRequestBytes) +
               " B the simulation takes";
    // malloc(): round, pick the pool, reuse a cached block, else a new one; before giving up, free what
    // the cache holds and retry (release_available_cached_blocks, then release_cached_blocks)
    const std::uint64_t size = roundedBytes(bytes);
    const bool small = size <= kAllocatorSmallSize; // get_pool()
    int block = getFreeBlock(small, size);
    if (block < 0)
        block = allocBlock(small, size);
    if (block < 0 && releaseAvailableCachedBlocks(small, size))
        block = allocBlock(small, size);
    if (block < 0) {
        emptyCache();
        block = allocBlock(small, size);
    }
    if (block < 0)
        return "out of memory: " + std::to_string(size) + " B with " + std::to_string(reserved_) +
               " B reserved of " + std::to_string(capacity_) + " B";
    if (shouldSplit(block, size)) { // alloc_found_block(): the block keeps the front, the rest stays free
        AllocatorBlockEntry rest = at(block);
        rest.address += size;
        rest.size -= size;
        rest.prev = block;
        const int r = blocks_.add(rest);
        AllocatorBlockEntry& b = at(block);
        if (b.next >= 0)
            at(b.next).prev = r;
        b.next = r;
        b.size = size;
        pools_.file(at(r), r);
    }
    AllocatorBlockEntry& b = at(block);
    b.allocated = true;
    b.requested = bytes;
    allocated_ += b.size;
    peakAllocated_ = std::max(peakAllocated_, allocated_);
    live_.add(id, block);
    return {};
}

std::string CachingAllocatorSimulation::free(std::uint64_t id) {
    ++workCounts().allocatorEvents;
    const int block = live_.find(id);
    if (block == LiveAllocations::kNotLive)
        return "allocation " + std::to_string(id) + " is not live";
    live_.remove(id);
    if (block < 0)
        return {};
    // free() → free_block(): merged with a free neighbour on either side, then cached in its pool
    AllocatorBlockEntry& b = at(block);
    b.allocated = false;
    b.requested = 0;
    allocated_ -= b.size;
    tryMergeBlocks(block, b.prev);
    tryMergeBlocks(block, at(block).next);
    pools_.file(at(block), block);
    return {};
}

std::vector<AllocatorSegment> CachingAllocatorSimulation::segments() const {
    return blocks_.segments(); // snapshot()
}

} // namespace napkin
