// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PyTorch's CUDA caching allocator, simulated: which segments it would cudaMalloc (or, with
// expandable_segments, map) for a sequence of allocations and frees on one stream, and so what
// torch.cuda.memory_reserved() — and nvidia-smi, less the CUDA context — would show at each of them.
// Every rule is the source's: c10/cuda/CUDACachingAllocator.cpp, pytorch/pytorch at
// 001074d25084fdb87a799823e395a50f5ec044d3 (function names below are that file's; docs/memory-timeline.md,
// "Reserved memory", lists them). Not simulated: other streams (every block here is the default stream's;
// PyTorch keeps each stream's free blocks apart), events of blocks used on other streams (record_stream),
// CUDA graphs' private pools, garbage_collection_threshold, and memory other than the allocator's (the CUDA
// context, NCCL's buffers, cuBLAS workspaces made outside it).
// The sizes are allocator_sizes.h's, a pool's free blocks a FreeBlockIndex, the live ids LiveAllocations;
// a whole event list is replayed by allocator_replay.h.
#include "engine/allocator/allocator_block_table.h"
#include "engine/allocator/allocator_config.h"
#include "engine/allocator/allocator_pools.h"
#include "engine/allocator/allocator_replay.h"
#include "engine/allocator/allocator_segment.h"
#include "engine/allocator/allocator_sizes.h"
#include "engine/allocator/live_allocations.h"

#include <cstdint>
#include <string>
#include <vector>

namespace napkin {

/// The device's allocator (DeviceCachingAllocator) for one stream. `capacityBytes` > 0: cudaMalloc (or a
/// page map) fails past it, and the allocator frees cached blocks and retries as PyTorch does before it raises
/// out-of-memory; 0: memory without limit.
class CachingAllocatorSimulation {
public:
    explicit CachingAllocatorSimulation(AllocatorConfig config = {}, std::uint64_t capacityBytes = 0);

    /// malloc(): a block for `bytes` under the caller's `id`; "" or why not (a live id, out of memory, above
    /// kAllocatorMaxRequestBytes). A
    /// request of 0 bytes allocates nothing (PyTorch returns no block for it); its id's free is a no-op.
    std::string allocate(std::uint64_t id, std::uint64_t bytes);
    /// free(): the block of `id` back to its pool, merged with free neighbours; "" or why not (unknown id).
    std::string free(std::uint64_t id);
    /// emptyCache(): release_cached_blocks(): every free unsplit segment cudaFree'd; with expandable segments,
    /// every whole free page unmapped.
    void emptyCache();

    std::uint64_t reservedBytes() const { return reserved_; }   ///< memory_reserved(): segments (mapped pages)
    std::uint64_t allocatedBytes() const { return allocated_; } ///< memory_allocated(): blocks handed out
    std::uint64_t peakReservedBytes() const { return peakReserved_; }
    std::uint64_t peakAllocatedBytes() const { return peakAllocated_; }
    void resetPeaks(); ///< reset_peak_memory_stats(): the peaks become the current figures

    /// The segments in address order, each with its blocks (snapshot()).
    std::vector<AllocatorSegment> segments() const;

    /// round_size(): allocatorRoundedBytes() under this allocator's roundup_power2_divisions.
    std::uint64_t roundedBytes(std::uint64_t bytes) const {
        return allocatorRoundedBytes(bytes, config_.roundupPower2Divisions);
    }
    /// get_allocation_size(): allocatorSegmentBytes().
    static std::uint64_t segmentBytes(std::uint64_t size) { return allocatorSegmentBytes(size); }

private:

    AllocatorBlockEntry& at(int i) { return blocks_[i]; }
    const AllocatorBlockEntry& at(int i) const { return blocks_[i]; }
    int getFreeBlock(bool small, std::uint64_t size);
    int allocBlock(bool small, std::uint64_t size);
    int tryAllocateExpandable(bool small, std::uint64_t size);
    int findExpandableBlock(bool small, std::uint64_t size);
    bool mapBlock(int block, std::uint64_t size);
    void unmapBlock(int block);
    bool releaseAvailableCachedBlocks(bool small, std::uint64_t size);
    void releaseBlock(int block);
    std::uint64_t tryMergeBlocks(int dst, int src);
    bool shouldSplit(int block, std::uint64_t size) const;
    bool canReserve(std::uint64_t bytes) const;
    void reserve(std::int64_t bytes);

    AllocatorConfig config_;
    std::uint64_t capacity_;
    AllocatorBlockTable blocks_;
    AllocatorPools pools_;
    LiveAllocations live_;                       ///< id → its allocated block (kNoBlock: a 0-byte request)
    std::vector<std::uint64_t> expandableBases_; ///< each expandable segment's first address
    std::uint64_t nextAddress_ = 1ull << 32;
    std::uint64_t reserved_ = 0, allocated_ = 0, peakReserved_ = 0, peakAllocated_ = 0;
};

} // namespace napkin
