// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A whole sequence of allocations, frees and empty_cache() calls through a fresh simulated caching allocator
// (caching_allocator_simulation.h): memory_reserved() and memory_allocated() after each, the peaks and the
// segments left.
#include "engine/allocator/allocator_config.h"
#include "engine/allocator/allocator_segment.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace napkin {

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
    std::string error; ///< the first refused event ("event 12: …"); the replay stops there
};

/// Longest event list replayed; a longer one is refused unread (each event costs O(log blocks)).
inline constexpr std::size_t kAllocatorMaxEvents = 4'000'000;

/// Replays `events` through a fresh allocator; counts them in workCounts().allocatorEvents.
AllocatorReplay replayAllocator(const std::vector<AllocatorEvent>& events, const AllocatorConfig& config = {},
                                std::uint64_t capacityBytes = 0);

} // namespace napkin
