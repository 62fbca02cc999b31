// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/memory_timeline_report.h"

#include "engine/report/json_values.h"

namespace napkin {

nlohmann::json memoryTimelineJson(const std::vector<TimelineEvent>& events) {
    nlohmann::json list = nlohmann::json::array();
    for (const TimelineEvent& e : events) {
        const StepBytes& b = e.bytes;
        list.push_back({{"event", stepEventName(e.event)},
                        {"phase", stepPhaseName(e.event.phase)},
                        {"bytes",
                         {{"parameters", jsonNumber(b.parameters)},
                          {"gradients", jsonNumber(b.gradients)},
                          {"master_weights", jsonNumber(b.masterWeights)},
                          {"optimizer_state", jsonNumber(b.optimizerState)},
                          {"activations", jsonNumber(b.activations)},
                          {"temporary", jsonNumber(b.temporary)},
                          {"total", jsonNumber(b.total())}}}});
    }
    return list;
}

nlohmann::json timelineComparisonJson(const MemoryTimeline& predicted,
                                      const std::vector<TimelineEvent>& measured) {
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < predicted.events.size(); ++i) {
        const TimelineEvent& e = predicted.events[i];
        const std::optional<double> seen = measuredTotalAt(predicted, measured, i);
        list.push_back({{"event", stepEventName(e.event)},
                        {"phase", stepPhaseName(e.event.phase)},
                        {"predicted_bytes", jsonNumber(e.bytes.total())},
                        {"measured_bytes", seen ? jsonNumber(*seen) : nlohmann::json(nullptr)}});
    }
    return list;
}

std::optional<double> measuredTotalAt(const MemoryTimeline& predicted,
                                      const std::vector<TimelineEvent>& measured, std::size_t index) {
    if (index >= predicted.events.size() || index >= measured.size() ||
        !(measured[index].event == predicted.events[index].event))
        return std::nullopt;
    return measured[index].bytes.total();
}

nlohmann::json peakEventJson(const std::vector<TimelineEvent>& events) {
    const std::optional<std::size_t> peak = peakEventIndex(events);
    return peak ? nlohmann::json(stepEventName(events[*peak].event)) : nlohmann::json(nullptr);
}

} // namespace napkin
