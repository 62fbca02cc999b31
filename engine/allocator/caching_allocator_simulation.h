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
#include "engine/allocator/allocator_config.h"

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace napkin {

/// One block of a segment, in address order: `sizeBytes` as the allocator rounded it; `requestedBytes` the
/// request it serves (0 for a free block).
struct AllocatorBlock {
    std::uint64_t sizeBytes = 0;
    std::uint64_t requestedBytes = 0;
    bool allocated = false;
    bool operator==(const AllocatorBlock&) const = default;
};

/// A segment as torch.cuda.memory_snapshot() lists one: a cudaMalloc'ed range, or one contiguous mapped range
/// of an expandable segment. `address` is the simulation's (cudaMalloc's own addresses are not predictable):
/// it orders segments as they were made.
struct AllocatorSegment {
    std::uint64_t address = 0;
    std::uint64_t sizeBytes = 0;
    bool large = true; ///< the large pool's (requests above 1 MiB); false: the small pool's
    bool expandable = false;
    std::vector<AllocatorBlock> blocks;
    bool operator==(const AllocatorSegment&) const = default;
};

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

    /// round_size(): the block size for a request of `bytes` (at least 512; 512-byte multiples, or the
    /// roundup_power2_divisions step above 512 · divisions).
    std::uint64_t roundedBytes(std::uint64_t bytes) const;
    /// get_allocation_size(): a new segment's size for a block of `size` rounded bytes (no expandable segments).
    static std::uint64_t segmentBytes(std::uint64_t size);

private:
    struct Block {
        std::uint64_t address = 0, size = 0, requested = 0;
        int prev = -1, next = -1; ///< neighbours within the segment, in address order
        bool allocated = false, small = false, mapped = true, expandable = false, live = true;
        int expandableSegment = -1; ///< index into expandableBases_
    };
    /// A pool's free mapped blocks by (size, address): BlockComparatorSize.
    struct BySize {
        const std::vector<Block>* blocks;
        bool operator()(int a, int b) const;
    };
    /// A pool's unmapped ranges of expandable segments by address: BlockComparatorAddress.
    struct ByAddress {
        const std::vector<Block>* blocks;
        bool operator()(int a, int b) const;
    };
    struct Pool {
        std::set<int, BySize> blocks;
        std::set<int, ByAddress> unmapped;
    };

    int newBlock(const Block& b);
    void dropBlock(int i);
    Pool& poolOf(bool small) { return small ? small_ : large_; }
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
    std::vector<Block> blocks_;
    std::vector<int> freeSlots_;
    Pool small_{std::set<int, BySize>(BySize{&blocks_}), std::set<int, ByAddress>(ByAddress{&blocks_})};
    Pool large_{std::set<int, BySize>(BySize{&blocks_}), std::set<int, ByAddress>(ByAddress{&blocks_})};
    std::unordered_map<std::uint64_t, int> live_; ///< id → its allocated block (-1: a 0-byte request)
    std::vector<std::uint64_t> expandableBases_;  ///< each expandable segment's first address
    std::uint64_t nextAddress_ = 1ull << 32;
    std::uint64_t reserved_ = 0, allocated_ = 0, peakReserved_ = 0, peakAllocated_ = 0;
};

enum class AllocatorAction { allocate, free, emptyCache };

/// One call to the allocator: allocate `bytes` as `id`, free `id`, or empty_cache().
struct AllocatorEvent {
    AllocatorAction action = AllocatorAction::allocate;
    std::uint64_t id = 0;
    std::uint64_t bytes = 0;
};

/// The simulation over a whole sequence.
struct AllocatorReplay {
    std::vector<std::uint64_t> reservedBytes;  ///< memory_reserved() after each event
    std::vector<std::uint64_t> allocatedBytes; ///< memory_allocated() after each event
    std::uint64_t peakReservedBytes = 0, peakAllocatedBytes = 0;
    std::vector<AllocatorSegment> segments; ///< after the last event
    std::string error;                      ///< the first refused event ("event 12: …"); the replay stops there
};

/// Largest request simulated (1 TiB, above any GPU's memory): every sum of sizes and addresses stays far
/// below 2^64 for the longest list.
inline constexpr std::uint64_t kAllocatorMaxRequestBytes = 1ull << 40;

/// Longest event list replayed; a longer one is refused unread (each event costs O(log blocks)).
inline constexpr std::size_t kAllocatorMaxEvents = 4'000'000;

/// Replays `events` through a fresh allocator; counts them in workCounts().allocatorEvents.
AllocatorReplay replayAllocator(const std::vector<AllocatorEvent>& events, const AllocatorConfig& config = {},
                                std::uint64_t capacityBytes = 0);

} // namespace napkin
