// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/allocator_replay.h"

#include "engine/allocator/caching_allocator_simulation.h"

namespace napkin {

AllocatorReplay replayAllocator(const std::vector<AllocatorEvent>& events, const AllocatorConfig& config,
                                std::uint64_t capacityBytes) {
    AllocatorReplay r;
    if (events.size() > kAllocatorMaxEvents) {
        r.error = std::to_string(events.size()) + " events: more than the " +
                  std::to_string(kAllocatorMaxEvents) + " a replay takes";
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
