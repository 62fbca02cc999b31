#include "engine/allocator/caching_allocator_simulation.h"

#include "engine/numerics/work_counts.h"

#include <algorithm>
#include <bit>

// Each rule below names the function of c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch at
// 001074d25084fdb87a799823e395a50f5ec044d3) it follows.
namespace napkin {
namespace {

constexpr std::uint64_t kMinBlockSize = 512;      // "all sizes are rounded to at least 512 bytes"
constexpr std::uint64_t kSmallSize = 1048576;     // "largest 'small' allocation is 1 MiB"
constexpr std::uint64_t kSmallBuffer = 2097152;   // "'small' allocations are packed in 2 MiB blocks"
constexpr std::uint64_t kMinLargeAlloc = 10485760; // "allocations between 1 and 10 MiB may use kLargeBuffer"
constexpr std::uint64_t kLargeBuffer = 20971520;  // "'large' allocations may be packed in 20 MiB blocks"
constexpr std::uint64_t kRoundLarge = 2097152;    // "round up large allocations to 2 MiB"
// ExpandableSegment reserves address space for 1 1/8 of the GPU's memory; without a capacity (and at most),
// 2 TiB: above the largest request, and small enough that a new one per event cannot overflow addresses.
constexpr std::uint64_t kMaxAddressSpace = 2 * kAllocatorMaxRequestBytes;

std::uint64_t ceilTo(std::uint64_t value, std::uint64_t step) {
    return step * ((value + step - 1) / step);
}

} // namespace

bool CachingAllocatorSimulation::BySize::operator()(int a, int b) const {
    const Block& x = (*blocks)[static_cast<std::size_t>(a)];
    const Block& y = (*blocks)[static_cast<std::size_t>(b)];
    return x.size != y.size ? x.size < y.size : x.address < y.address;
}

bool CachingAllocatorSimulation::ByAddress::operator()(int a, int b) const {
    return (*blocks)[static_cast<std::size_t>(a)].address < (*blocks)[static_cast<std::size_t>(b)].address;
}

CachingAllocatorSimulation::CachingAllocatorSimulation(AllocatorConfig config, std::uint64_t capacityBytes)
    : config_(config)
    , capacity_(capacityBytes) {}

std::uint64_t CachingAllocatorSimulation::roundedBytes(std::uint64_t bytes) const {
    // round_size() and roundup_power2_next_division()
    if (bytes < kMinBlockSize)
        return kMinBlockSize;
    const std::uint64_t divisions = config_.roundupPower2Divisions;
    if (divisions > 1 && bytes > kMinBlockSize * divisions) {
        if (std::has_single_bit(bytes))
            return bytes;
        const std::uint64_t floor = std::bit_floor(bytes);
        const std::uint64_t step = floor >> std::countr_zero(divisions); // divisions is a power of two
        if (step == 0)
            return floor << 1;
        const std::uint64_t down = bytes & ~(step - 1);
        return down == bytes ? bytes : down + step;
    }
    return ceilTo(bytes, kMinBlockSize);
}

std::uint64_t CachingAllocatorSimulation::segmentBytes(std::uint64_t size) {
    // get_allocation_size()
    if (size <= kSmallSize)
        return kSmallBuffer;
    if (size < kMinLargeAlloc)
        return kLargeBuffer;
    return ceilTo(size, kRoundLarge);
}

int CachingAllocatorSimulation::newBlock(const Block& b) {
    if (!freeSlots_.empty()) {
        const int i = freeSlots_.back();
        freeSlots_.pop_back();
        blocks_[static_cast<std::size_t>(i)] = b;
        return i;
    }
    blocks_.push_back(b);
    return static_cast<int>(blocks_.size() - 1);
}

void CachingAllocatorSimulation::dropBlock(int i) {
    blocks_[static_cast<std::size_t>(i)].live = false;
    freeSlots_.push_back(i);
}

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
    const Block& b = blocks_[static_cast<std::size_t>(block)];
    const std::uint64_t remaining = b.size - size;
    if (b.small || config_.expandableSegments)
        return remaining >= kMinBlockSize;
    return size < config_.maxSplitSizeBytes && remaining > kSmallSize;
}

int CachingAllocatorSimulation::getFreeBlock(bool small, std::uint64_t size) {
    // get_free_block(): best fit, the smallest free block of at least `size` (the lowest address among equals)
    Pool& pool = poolOf(small);
    Block key;
    key.size = size;
    key.address = 0;
    const int keyIndex = newBlock(key);
    auto it = pool.blocks.lower_bound(keyIndex);
    dropBlock(keyIndex);
    if (it == pool.blocks.end())
        return -1;
    const auto expandableSize = [this](int i) {
        const Block& b = blocks_[static_cast<std::size_t>(i)];
        const bool unmappedNext = b.next >= 0 && !blocks_[static_cast<std::size_t>(b.next)].mapped;
        return b.size + (unmappedNext ? blocks_[static_cast<std::size_t>(b.next)].size : 0);
    };
    if (blocks_[static_cast<std::size_t>(*it)].expandable) {
        if (config_.expandableSegments) {
            // A block that can grow into unmapped pages counts as the size it can grow to, so a fitting
            // block that cannot grow is taken first.
            auto next = std::next(it);
            while (blocks_[static_cast<std::size_t>(*it)].expandable && next != pool.blocks.end() &&
                   expandableSize(*next) < expandableSize(*it))
                it = next++;
        } else {
            do
                ++it;
            while (it != pool.blocks.end() && blocks_[static_cast<std::size_t>(*it)].expandable);
            if (it == pool.blocks.end())
                return -1;
        }
    }
    const std::uint64_t found = blocks_[static_cast<std::size_t>(*it)].size;
    const std::uint64_t maxSplit = config_.maxSplitSizeBytes;
    if (size < maxSplit && found >= maxSplit)
        return -1; // "Do not return an oversized block for a large request"
    if (size >= maxSplit && found >= size + kLargeBuffer)
        return -1; // "Allow oversized block size to be rounded up but within a limit"
    const int block = *it;
    pool.blocks.erase(it);
    return block;
}

int CachingAllocatorSimulation::allocBlock(bool small, std::uint64_t size) {
    // alloc_block(): a new segment (cudaMalloc), or with expandable segments more pages mapped
    if (config_.expandableSegments)
        return tryAllocateExpandable(small, size);
    const std::uint64_t bytes = segmentBytes(size);
    if (!canReserve(bytes))
        return -1;
    Block b;
    b.address = nextAddress_;
    b.size = bytes;
    b.small = small;
    nextAddress_ += ceilTo(bytes, kRoundLarge) + kRoundLarge; // segments are apart: none merges with another
    reserve(static_cast<std::int64_t>(bytes));
    return newBlock(b);
}

int CachingAllocatorSimulation::findExpandableBlock(bool small, std::uint64_t size) {
    // find_expandable_block(): the lowest-addressed unmapped range (with the free block just before it) that,
    // with the free or unmapped blocks after it, holds `size`; else a new segment of unmapped address space.
    Pool& pool = poolOf(small);
    const auto allocatable = [this](int i) { return i >= 0 && !blocks_[static_cast<std::size_t>(i)].allocated; };
    for (const int u : pool.unmapped) {
        int c = u;
        if (allocatable(blocks_[static_cast<std::size_t>(u)].prev))
            c = blocks_[static_cast<std::size_t>(u)].prev;
        std::uint64_t bytes = 0;
        for (int b = c; bytes < size && allocatable(b); b = blocks_[static_cast<std::size_t>(b)].next)
            bytes += blocks_[static_cast<std::size_t>(b)].size;
        if (bytes >= size)
            return c;
    }
    const std::uint64_t page = small ? kSmallBuffer : kLargeBuffer;
    const std::uint64_t wanted = capacity_ > 0 && capacity_ < kMaxAddressSpace ? capacity_ + capacity_ / 8
                                                                                : kMaxAddressSpace;
    const std::uint64_t space = ceilTo(std::min(wanted, kMaxAddressSpace), page);
    if (size > space)
        return -1; // more than the device's address space: out of memory
    Block b;
    b.address = ceilTo(nextAddress_, page);
    b.size = space;
    b.small = small;
    b.mapped = false;
    b.expandable = true;
    b.expandableSegment = static_cast<int>(expandableBases_.size());
    expandableBases_.push_back(b.address);
    nextAddress_ = b.address + space + page;
    const int i = newBlock(b);
    pool.unmapped.insert(i);
    return i;
}

bool CachingAllocatorSimulation::mapBlock(int toMap, std::uint64_t size) {
    // map_block(): whole pages from the block's start to cover `size`; the rest stays unmapped after it
    Block& m = blocks_[static_cast<std::size_t>(toMap)];
    const std::uint64_t page = m.small ? kSmallBuffer : kLargeBuffer;
    const std::uint64_t mapped = std::min(ceilTo(size, page), m.size);
    if (!canReserve(mapped))
        return false;
    Pool& pool = poolOf(m.small);
    pool.unmapped.erase(toMap);
    if (mapped < m.size) {
        Block rest = m;
        rest.address = m.address + mapped;
        rest.size = m.size - mapped;
        rest.prev = toMap;
        const int r = newBlock(rest); // m is a reference into blocks_: re-read it below
        Block& again = blocks_[static_cast<std::size_t>(toMap)];
        if (again.next >= 0)
            blocks_[static_cast<std::size_t>(again.next)].prev = r;
        again.next = r;
        again.size = mapped;
        pool.unmapped.insert(r);
    }
    blocks_[static_cast<std::size_t>(toMap)].mapped = true;
    tryMergeBlocks(toMap, blocks_[static_cast<std::size_t>(toMap)].prev);
    tryMergeBlocks(toMap, blocks_[static_cast<std::size_t>(toMap)].next);
    pool.blocks.insert(toMap);
    reserve(static_cast<std::int64_t>(mapped));
    return true;
}

int CachingAllocatorSimulation::tryAllocateExpandable(bool small, std::uint64_t size) {
    // try_allocate_expandable_block()
    int candidate = findExpandableBlock(small, size);
    if (candidate < 0)
        return -1;
    {
        const Block& c = blocks_[static_cast<std::size_t>(candidate)];
        if (!c.mapped && !mapBlock(candidate, std::min(c.size, size)))
            return -1;
    }
    while (blocks_[static_cast<std::size_t>(candidate)].size < size) {
        const Block& c = blocks_[static_cast<std::size_t>(candidate)];
        const int next = c.next;
        const std::uint64_t remaining = size - c.size;
        if (next < 0 || blocks_[static_cast<std::size_t>(next)].mapped)
            return -1; // find_expandable_block() vouched for the space; a guard, not a rule
        if (!mapBlock(next, std::min(remaining, blocks_[static_cast<std::size_t>(next)].size)))
            return -1;
        candidate = next; // map_block merged the candidate into it
    }
    poolOf(small).blocks.erase(candidate);
    return candidate;
}

std::uint64_t CachingAllocatorSimulation::tryMergeBlocks(int dst, int src) {
    // try_merge_blocks(): a free neighbour in the same state (mapped or not) is absorbed
    if (src < 0)
        return 0;
    Block& s = blocks_[static_cast<std::size_t>(src)];
    Block& d = blocks_[static_cast<std::size_t>(dst)];
    if (s.allocated || s.mapped != d.mapped)
        return 0;
    Pool& pool = poolOf(s.small);
    if (s.mapped)
        pool.blocks.erase(src);
    else
        pool.unmapped.erase(src);
    const bool dstInBlocks = d.mapped && pool.blocks.erase(dst) > 0; // its key changes below
    const bool dstInUnmapped = !d.mapped && pool.unmapped.erase(dst) > 0;
    if (d.prev == src) { // [src dst]
        d.address = s.address;
        d.prev = s.prev;
        if (d.prev >= 0)
            blocks_[static_cast<std::size_t>(d.prev)].next = dst;
    } else { // [dst src]
        d.next = s.next;
        if (d.next >= 0)
            blocks_[static_cast<std::size_t>(d.next)].prev = dst;
    }
    const std::uint64_t subsumed = s.size;
    d.size += subsumed;
    if (dstInBlocks)
        pool.blocks.insert(dst);
    if (dstInUnmapped)
        pool.unmapped.insert(dst);
    dropBlock(src);
    return subsumed;
}

void CachingAllocatorSimulation::releaseBlock(int block) {
    // release_block(): cudaFree of a whole free segment
    const Block& b = blocks_[static_cast<std::size_t>(block)];
    poolOf(b.small).blocks.erase(block);
    reserve(-static_cast<std::int64_t>(b.size));
    dropBlock(block);
}

void CachingAllocatorSimulation::unmapBlock(int block) {
    // unmap_block(): the whole pages inside a free block of an expandable segment are unmapped
    Block b = blocks_[static_cast<std::size_t>(block)];
    const std::uint64_t page = b.small ? kSmallBuffer : kLargeBuffer;
    const std::uint64_t base = expandableBases_[static_cast<std::size_t>(b.expandableSegment)];
    const std::uint64_t begin = base + ceilTo(b.address - base, page);
    const std::uint64_t end = base + (b.address + b.size - base) / page * page;
    if (begin >= end)
        return;
    Pool& pool = poolOf(b.small);
    pool.blocks.erase(block);
    if (begin > b.address) { // prev? -> before -> block
        Block before = b;
        before.size = begin - b.address;
        before.next = block;
        const int i = newBlock(before);
        if (before.prev >= 0)
            blocks_[static_cast<std::size_t>(before.prev)].next = i;
        blocks_[static_cast<std::size_t>(block)].prev = i;
        pool.blocks.insert(i);
    }
    if (b.address + b.size > end) { // block -> after -> next?
        Block after = b;
        after.address = end;
        after.size = b.address + b.size - end;
        after.prev = block;
        after.next = blocks_[static_cast<std::size_t>(block)].next;
        const int i = newBlock(after);
        if (after.next >= 0)
            blocks_[static_cast<std::size_t>(after.next)].prev = i;
        blocks_[static_cast<std::size_t>(block)].next = i;
        pool.blocks.insert(i);
    }
    Block& u = blocks_[static_cast<std::size_t>(block)];
    u.address = begin;
    u.size = end - begin;
    u.mapped = false;
    tryMergeBlocks(block, u.prev);
    tryMergeBlocks(block, blocks_[static_cast<std::size_t>(block)].next);
    pool.unmapped.insert(block);
    reserve(-static_cast<std::int64_t>(end - begin));
}

bool CachingAllocatorSimulation::releaseAvailableCachedBlocks(bool small, std::uint64_t size) {
    // release_available_cached_blocks(): with max_split_size set, cudaFree the smallest oversize free block
    // that covers the request, else the largest oversize ones until their sizes do
    if (config_.maxSplitSizeBytes == kAllocatorNoMaxSplit)
        return false;
    Pool& pool = poolOf(small);
    Block key;
    key.size = std::max(size, config_.maxSplitSizeBytes);
    key.address = 0;
    const int keyIndex = newBlock(key);
    auto it = pool.blocks.lower_bound(keyIndex);
    dropBlock(keyIndex);
    if (it != pool.blocks.end()) {
        releaseBlock(*it);
        return true;
    }
    std::uint64_t released = 0;
    while (released < key.size && !pool.blocks.empty()) {
        const int largest = *std::prev(pool.blocks.end());
        if (blocks_[static_cast<std::size_t>(largest)].size < config_.maxSplitSizeBytes)
            break;
        released += blocks_[static_cast<std::size_t>(largest)].size;
        releaseBlock(largest);
    }
    return released >= key.size;
}

void CachingAllocatorSimulation::emptyCache() {
    // release_cached_blocks() → release_blocks() for each pool: unsplit free segments are cudaFree'd; free
    // blocks of expandable segments lose their whole pages, and a segment left wholly unmapped is released.
    for (Pool* pool : {&large_, &small_}) {
        std::vector<int> toUnmap;
        std::vector<int> toRelease;
        for (const int i : pool->blocks) {
            const Block& b = blocks_[static_cast<std::size_t>(i)];
            if (b.expandable)
                toUnmap.push_back(i);
            else if (b.prev < 0 && b.next < 0)
                toRelease.push_back(i);
        }
        for (const int i : toRelease)
            releaseBlock(i);
        for (const int i : toUnmap) {
            unmapBlock(i);
            const Block& b = blocks_[static_cast<std::size_t>(i)];
            if (!b.mapped && b.prev < 0 && b.next < 0) { // release_expandable_segment()
                pool->unmapped.erase(i);
                dropBlock(i);
            }
        }
    }
}

std::string CachingAllocatorSimulation::allocate(std::uint64_t id, std::uint64_t bytes) {
    ++workCounts().allocatorEvents;
    if (live_.contains(id))
        return "allocation " + std::to_string(id) + " is already live";
    if (bytes == 0) {
        live_[id] = -1;
        return {};
    }
    if (bytes > kAllocatorMaxRequestBytes)
        return "a request of " + std::to_string(bytes) + " B: above the " + std::to_string(kAllocatorMaxRequestBytes) +
               " B the simulation takes";
    // malloc(): round, pick the pool, reuse a cached block, else a new one; before giving up, free what
    // the cache holds and retry (release_available_cached_blocks, then release_cached_blocks)
    const std::uint64_t size = roundedBytes(bytes);
    const bool small = size <= kSmallSize; // get_pool()
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
        Block rest = blocks_[static_cast<std::size_t>(block)];
        rest.address += size;
        rest.size -= size;
        rest.prev = block;
        const int r = newBlock(rest);
        Block& b = blocks_[static_cast<std::size_t>(block)];
        if (b.next >= 0)
            blocks_[static_cast<std::size_t>(b.next)].prev = r;
        b.next = r;
        b.size = size;
        poolOf(small).blocks.insert(r);
    }
    Block& b = blocks_[static_cast<std::size_t>(block)];
    b.allocated = true;
    b.requested = bytes;
    allocated_ += b.size;
    peakAllocated_ = std::max(peakAllocated_, allocated_);
    live_[id] = block;
    return {};
}

std::string CachingAllocatorSimulation::free(std::uint64_t id) {
    ++workCounts().allocatorEvents;
    const auto found = live_.find(id);
    if (found == live_.end())
        return "allocation " + std::to_string(id) + " is not live";
    const int block = found->second;
    live_.erase(found);
    if (block < 0)
        return {};
    // free() → free_block(): merged with a free neighbour on either side, then cached in its pool
    Block& b = blocks_[static_cast<std::size_t>(block)];
    b.allocated = false;
    b.requested = 0;
    allocated_ -= b.size;
    tryMergeBlocks(block, b.prev);
    tryMergeBlocks(block, blocks_[static_cast<std::size_t>(block)].next);
    poolOf(blocks_[static_cast<std::size_t>(block)].small).blocks.insert(block);
    return {};
}

std::vector<AllocatorSegment> CachingAllocatorSimulation::segments() const {
    // snapshot(): one segment per cudaMalloc, and per contiguous mapped range of an expandable segment
    std::vector<AllocatorSegment> list;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
        const Block& head = blocks_[i];
        if (!head.live || !head.mapped || (head.prev >= 0 && blocks_[static_cast<std::size_t>(head.prev)].mapped))
            continue;
        AllocatorSegment s;
        s.address = head.address;
        s.large = !head.small;
        s.expandable = head.expandable;
        for (int b = static_cast<int>(i); b >= 0 && blocks_[static_cast<std::size_t>(b)].mapped;
             b = blocks_[static_cast<std::size_t>(b)].next) {
            const Block& k = blocks_[static_cast<std::size_t>(b)];
            s.blocks.push_back({k.size, k.requested, k.allocated});
            s.sizeBytes += k.size;
        }
        list.push_back(std::move(s));
    }
    std::sort(list.begin(), list.end(),
              [](const AllocatorSegment& a, const AllocatorSegment& b) { return a.address < b.address; });
    return list;
}

AllocatorReplay replayAllocator(const std::vector<AllocatorEvent>& events, const AllocatorConfig& config,
                                std::uint64_t capacityBytes) {
    AllocatorReplay r;
    if (events.size() > kAllocatorMaxEvents) {
        r.error = std::to_string(events.size()) + " events: more than the " + std::to_string(kAllocatorMaxEvents) +
                  " a replay takes";
        return r;
    }
    CachingAllocatorSimulation sim(config, capacityBytes);
    r.reservedBytes.reserve(events.size());
    r.allocatedBytes.reserve(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
        const AllocatorEvent& e = events[i];
        std::string error;
        if (e.action == AllocatorAction::allocate)
            error = sim.allocate(e.id, e.bytes);
        else if (e.action == AllocatorAction::free)
            error = sim.free(e.id);
        else
            sim.emptyCache();
        if (!error.empty()) {
            r.error = "event " + std::to_string(i + 1) + ": " + error;
            break;
        }
        r.reservedBytes.push_back(sim.reservedBytes());
        r.allocatedBytes.push_back(sim.allocatedBytes());
    }
    r.peakReservedBytes = sim.peakReservedBytes();
    r.peakAllocatedBytes = sim.peakAllocatedBytes();
    r.segments = sim.segments();
    return r;
}

} // namespace napkin
