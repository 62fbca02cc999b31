// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/measured/measured_comparison.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

namespace napkin {
namespace {

constexpr std::array<StepPhase, 4> kComparedPhases = {StepPhase::forward, StepPhase::backward,
                                                      StepPhase::optimizer, StepPhase::zeroGrad};

std::string lower(const std::string& text) {
    std::string out = text;
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Recompute happens inside backward: a run names no range for it.
StepPhase comparedPhase(StepPhase phase) {
    return phase == StepPhase::recompute ? StepPhase::backward : phase;
}

std::string phaseLabel(StepPhase phase) {
    return phase == StepPhase::optimizer ? "optimizer step" : std::string(stepPhaseName(phase));
}

} // namespace

namespace {

// The step's starting memory against the prediction's persistent bytes (measured_comparison.h).
void compareStart(MeasuredComparison& c, const MemoryTimeline& predicted, const MeasuredTimeline& timeline,
                  double namedBytes) {
    if (predicted.events.empty())
        return;
    c.predictedStartBytes = predicted.events.front().bytes.total();
    for (const MeasuredSample& s : timeline.samples) {
        if (s.phase < 0 || static_cast<std::size_t>(s.phase) >= timeline.phases.size() ||
            phaseOfRangeName(timeline.phases[static_cast<std::size_t>(s.phase)].name) != StepPhase::forward)
            continue;
        c.measuredStartBytes = s.allocatedBytes - s.deltaBytes - namedBytes;
        break;
    }
    if (!c.measuredStartBytes)
        return;
    const double off = *c.measuredStartBytes - c.predictedStartBytes;
    if (std::abs(off) > std::max(kSetupToleranceFraction * c.predictedStartBytes, 4096.0))
        c.setupDifferenceBytes = off;
}

} // namespace

std::optional<StepPhase> phaseOfRangeName(const std::string& name) {
    const std::string n = lower(name);
    if (n.find("zero_grad") != std::string::npos || n.find("zero grad") != std::string::npos)
        return StepPhase::zeroGrad;
    if (n.find("optimizer") != std::string::npos && n.find("step") != std::string::npos)
        return StepPhase::optimizer;
    if (n.find("backward") != std::string::npos)
        return StepPhase::backward;
    if (n.find("forward") != std::string::npos)
        return StepPhase::forward;
    return std::nullopt;
}

MeasuredComparison compareWithMeasured(const MemoryTimeline& predicted, const MeasuredRun& run,
                                       const MeasuredTimeline& timeline,
                                       std::span<const MeasuredOverhead> overheads) {
    MeasuredComparison c;
    c.device = timeline.device;
    c.predictedPeakBytes = predicted.peakBytes;
    if (predicted.peakIndex < predicted.events.size())
        c.predictedPeakEvent = stepEventName(predicted.events[predicted.peakIndex].event);
    c.measuredPeakBytes = timeline.peakAllocatedBytes;
    c.measuredPeakPhase = timeline.peakPhase;
    c.measuredSamples = timeline.samples.size();
    c.differenceBytes = c.measuredPeakBytes - c.predictedPeakBytes;

    double explained = 0, reservedLines = 0;
    for (const MeasuredNamedBytes& n : run.notModelled) {
        c.attributed.push_back(
            {n.name, n.bytes, "named by the run: held through it, outside the prediction"});
        explained += n.bytes;
    }
    compareStart(c, predicted, timeline, explained);
    for (const MeasuredOverhead& line : overheads) {
        if (line.scope == OverheadScope::allocated) {
            c.attributed.push_back({line.name, line.bytes, line.source});
            explained += line.bytes;
        } else if (line.scope == OverheadScope::reserved) {
            reservedLines += line.bytes;
        }
    }
    c.unexplainedBytes = c.differenceBytes - explained;
    c.hasReserved = timeline.hasReserved;
    if (c.hasReserved) {
        c.measuredReservedPeakBytes = timeline.peakReservedBytes;
        c.predictedReservedBytes = c.predictedPeakBytes + explained + reservedLines;
        c.unexplainedReservedBytes = c.measuredReservedPeakBytes - c.predictedReservedBytes;
    }

    // Each phase: napkin's largest event against the largest sample the run placed in it.
    std::vector<std::optional<StepPhase>> rangePhase;
    rangePhase.reserve(timeline.phases.size());
    for (const MeasuredPhase& p : timeline.phases)
        rangePhase.push_back(phaseOfRangeName(p.name));
    for (StepPhase phase : kComparedPhases) {
        PhaseComparison row;
        row.phase = phase;
        row.name = phaseLabel(phase);
        bool any = false;
        for (const TimelineEvent& e : predicted.events) {
            if (comparedPhase(e.event.phase) != phase)
                continue;
            const double total = e.bytes.total();
            if (!any || total > row.predictedPeakBytes) {
                row.predictedPeakBytes = total;
                row.predictedPeakEvent = stepEventName(e.event);
            }
            any = true;
        }
        for (std::size_t i = 0; i < timeline.phases.size(); ++i) {
            if (rangePhase[i] != phase || timeline.phases[i].samples == 0)
                continue;
            row.measuredRanges.push_back(timeline.phases[i].name);
            const double peak = timeline.phases[i].peakAllocatedBytes;
            row.measuredPeakBytes = row.measuredPeakBytes ? std::max(*row.measuredPeakBytes, peak) : peak;
        }
        if (any)
            c.phases.push_back(std::move(row));
    }
    return c;
}

std::vector<AlignedSample> alignToPredicted(const MemoryTimeline& predicted,
                                            const MeasuredTimeline& timeline) {
    // Each range's phase once, not once per sample.
    std::vector<std::optional<StepPhase>> rangePhase;
    rangePhase.reserve(timeline.phases.size());
    for (const MeasuredPhase& p : timeline.phases)
        rangePhase.push_back(phaseOfRangeName(p.name));
    std::vector<AlignedSample> out;
    for (StepPhase phase : kComparedPhases) {
        // The span of the phase's events on the chart's axis: from half before its first to half after its
        // last.
        std::optional<std::size_t> first, last;
        for (std::size_t i = 0; i < predicted.events.size(); ++i)
            if (comparedPhase(predicted.events[i].event.phase) == phase) {
                if (!first)
                    first = i;
                last = i;
            }
        if (!first)
            continue;
        std::vector<const MeasuredSample*> samples;
        for (const MeasuredSample& s : timeline.samples)
            if (s.phase >= 0 && static_cast<std::size_t>(s.phase) < rangePhase.size() &&
                rangePhase[static_cast<std::size_t>(s.phase)] == phase)
                samples.push_back(&s);
        const double from = static_cast<double>(*first) - 0.5, to = static_cast<double>(*last) + 0.5;
        for (std::size_t k = 0; k < samples.size(); ++k) {
            const double at =
                samples.size() == 1 ? 0.5 : static_cast<double>(k) / static_cast<double>(samples.size() - 1);
            out.push_back({from + at * (to - from), samples[k]->allocatedBytes, samples[k]->reservedBytes});
        }
    }
    return out;
}

} // namespace napkin
