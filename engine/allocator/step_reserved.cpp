// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/step_reserved.h"

#include "engine/accounting/memory_timeline.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/work_counts.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace napkin {
namespace {

constexpr std::size_t kComponents = 6;

std::array<double, kComponents> componentsOf(const StepBytes& b) {
    // parameters and the states first: they are made before a step's tensors
    return {b.parameters, b.masterWeights, b.optimizerState, b.gradients, b.activations, b.temporary};
}

/// Bytes as a whole number; what no request can be (NaN, above 2^62) becomes one the replay refuses.
std::uint64_t wholeBytes(double bytes) {
    constexpr double kBeyond = 4611686018427387904.0; // 2^62
    if (!(bytes < kBeyond))
        return bytes > 0 || std::isnan(bytes) ? kAllocatorMaxRequestBytes + 1 : 0;
    return bytes > 0 ? static_cast<std::uint64_t>(std::llround(bytes)) : 0;
}

/// The live allocations of each component, newest last, and the events that change them.
class ComponentAllocations {
public:
    explicit ComponentAllocations(std::vector<AllocatorEvent>& events)
        : events_(events) {}

    /// Frees, then allocations, that take each component from what it holds to `target`: frees come after
    /// the previous event's high-water mark, allocations make this one's (memory_timeline.h).
    void moveTo(const StepBytes& target) {
        const std::array<double, kComponents> bytes = componentsOf(target);
        std::array<std::uint64_t, kComponents> want{}; // each rounded once: llround is a libm call
        for (std::size_t c = 0; c < kComponents; ++c)
            want[c] = wholeBytes(bytes[c]);
        for (std::size_t c = 0; c < kComponents; ++c)
            if (want[c] < held(c))
                release(c, held(c) - want[c]);
        for (std::size_t c = 0; c < kComponents; ++c)
            if (want[c] > held(c))
                add(c, want[c] - held(c));
    }

private:
    std::uint64_t held(std::size_t c) const { return held_[c]; }
    void add(std::size_t c, std::uint64_t bytes) {
        live_[c].push_back({nextId_, bytes});
        held_[c] += bytes;
        events_.push_back({AllocatorAction::allocate, nextId_++, bytes});
    }
    void freeAt(std::size_t c, std::size_t i) {
        events_.push_back({AllocatorAction::free, live_[c][i].id, 0});
        held_[c] -= live_[c][i].bytes;
        live_[c].erase(live_[c].begin() + static_cast<std::ptrdiff_t>(i));
    }
    /// One of the newest few allocations of exactly `bytes` if there is one (a layer's activations freed in
    /// backward as they were made in forward); else the newest ones, the last of them re-made smaller for
    /// what stays. The search looks back a few allocations only, so a deep stack costs O(1) per event.
    void release(std::size_t c, std::uint64_t bytes) {
        constexpr std::size_t kLookBack = 8;
        std::vector<Live>& list = live_[c];
        for (std::size_t i = list.size(); i-- > 0 && i + kLookBack >= list.size();)
            if (list[i].bytes == bytes) {
                freeAt(c, i);
                return;
            }
        while (bytes > 0 && !list.empty()) {
            const std::uint64_t newest = list.back().bytes;
            freeAt(c, list.size() - 1);
            if (newest > bytes) {
                add(c, newest - bytes);
                return;
            }
            bytes -= newest;
        }
    }

    struct Live {
        std::uint64_t id, bytes;
    };
    std::vector<AllocatorEvent>& events_;
    std::array<std::vector<Live>, kComponents> live_;
    std::array<std::uint64_t, kComponents> held_{};
    std::uint64_t nextId_ = 1;
};

} // namespace

StepAllocations stepAllocations(const AccountingInput& input, const AccountingResult& result,
                                std::size_t steps, const MemoryTimeline* steadyGiven) {
    StepAllocations s;
    const ValuesOnly bytesAlone; // the timelines' bytes are replayed; their formulas are not read
    ComponentAllocations held(s.events);
    // The model as built before its first step: parameters and master weights, no optimizer state yet.
    StepBytes built;
    built.parameters = result.memory.parameters.value;
    built.masterWeights = result.memory.masterWeights.value;
    held.moveTo(built);
    const MemoryTimeline first = memoryTimeline(input, result, TrainingStep::first);
    std::optional<MemoryTimeline> steadyBuilt;
    if (steps > 1 && !steadyGiven)
        steadyBuilt = memoryTimeline(input, result, TrainingStep::steady);
    const MemoryTimeline& steady = steps <= 1 ? first : steadyGiven ? *steadyGiven : *steadyBuilt;
    // a few allocations and frees per event: the list grows once or twice, not at every power of two
    const std::size_t perStep = std::max(first.events.size(), steady.events.size());
    s.events.reserve(std::min(kAllocatorMaxEvents, 4 * perStep * std::min<std::size_t>(steps, 16) + 16));
    for (std::size_t step = 0; step < steps; ++step) {
        const MemoryTimeline& t = step == 0 ? first : steady;
        const bool last = step + 1 == steps;
        for (const TimelineEvent& e : t.events) {
            held.moveTo(e.bytes);
            if (last)
                s.marks.push_back(s.events.size());
            if (s.events.size() > kAllocatorMaxEvents) { // refused by the replay: stop building it
                s.marks.clear();
                return s;
            }
        }
    }
    return s;
}

StepReserved stepReserved(const AccountingInput& input, const AccountingResult& result,
                          const AllocatorConfig& config, std::size_t steps, const MemoryTimeline* steady) {
    ++workCounts().stepReplays;
    StepReserved r;
    r.steps = steps;
    if (steps == 0)
        return r;
    const StepAllocations s = stepAllocations(input, result, steps, steady);
    r.allocatorEvents = s.events.size();
    AllocatorReplay replay = replayAllocator(s.events, config);
    if (!replay.error.empty()) {
        r.error = replay.error;
        return r;
    }
    r.reservedBytes.reserve(s.marks.size());
    for (const std::size_t mark : s.marks) // after the mark-th event (none: before any)
        r.reservedBytes.push_back(mark == 0 ? 0.0 : static_cast<double>(replay.reservedBytes[mark - 1]));
    r.peakReservedBytes = static_cast<double>(replay.peakReservedBytes);
    r.peakAllocatedBytes = static_cast<double>(replay.peakAllocatedBytes);
    r.segments = std::move(replay.segments);
    return r;
}

} // namespace napkin
