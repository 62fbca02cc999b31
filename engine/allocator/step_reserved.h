// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The predicted step through the simulated caching allocator: reserved memory at each event of the memory
// timeline (memory_timeline.h). The timeline knows each component's bytes at each event, not each tensor, so
// every change of a component between two events is one allocation or free of that many bytes ("timeline
// events" granularity): a layer's saved activations are one block here where PyTorch makes a dozen, and
// what the allocator does with tensors below 10 MiB (20 MiB segments shared) is not reproduced for them.
// docs/memory-timeline.md, "Reserved memory", says what follows from that.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/allocator/allocator_config.h"
#include "engine/allocator/caching_allocator_simulation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace napkin {

struct StepReserved {
    /// memory_reserved() at each event of the steady step (memoryTimeline(input, result).events), the last
    /// simulated step's.
    std::vector<double> reservedBytes;
    double peakReservedBytes = 0;  ///< max_memory_reserved() over the model's creation and every step
    double peakAllocatedBytes = 0; ///< max_memory_allocated() as the simulation counts it (rounded blocks)
    std::size_t steps = 0; ///< steps simulated: the first (it creates the optimizer state), then steady
    std::size_t allocatorEvents = 0;
    std::vector<AllocatorSegment> segments; ///< after the last step
    std::string error;                      ///< why there is no figure (an event list too long)
};

/// The model's parameters and master weights allocated, then `steps` steps (the first, then steady ones)
/// event by event through CachingAllocatorSimulation(config); `result` must be account(input, …)'s.
/// `steady`: the steady step's timeline (memoryTimeline(input, result)) where the caller has built it
/// already (the Accounting page draws it), so that it is not built again; null: built here.
StepReserved stepReserved(const AccountingInput& input, const AccountingResult& result,
                          const AllocatorConfig& config = {}, std::size_t steps = 2,
                          const MemoryTimeline* steady = nullptr);

/// The allocation and free events stepReserved() replays, and after which of them each steady-step timeline
/// event's bytes are held (`marks`, one per event of the last step).
struct StepAllocations {
    std::vector<AllocatorEvent> events;
    std::vector<std::size_t> marks;
};
StepAllocations stepAllocations(const AccountingInput& input, const AccountingResult& result,
                                std::size_t steps = 2, const MemoryTimeline* steady = nullptr);

} // namespace napkin
