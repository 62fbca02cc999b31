// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/planning/plan_explanation.h"

#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>

namespace napkin {
namespace {

std::map<std::string, double> partSeconds(const StepTime& time) {
    std::map<std::string, double> parts;
    for (const StepTimeRow& row : time.ledger)
        parts[ledgerPart(row)] += row.seconds;
    return parts;
}

} // namespace

std::string ledgerPart(const StepTimeRow& row) {
    switch (row.kind) {
    case StepTimeKind::communication:
        return row.name;
    case StepTimeKind::bubble:
        return "pipeline bubble";
    case StepTimeKind::compute:
    case StepTimeKind::memory:
    case StepTimeKind::overhead:
        break;
    }
    return std::string(stepTimePhaseName(row.phase)) + " " + std::string(stepTimeKindName(row.kind));
}

std::vector<LedgerDifference> ledgerDifferences(const StepTime& first, const StepTime& other,
                                                std::size_t count) {
    std::map<std::string, double> difference = partSeconds(other);
    for (const auto& [part, seconds] : partSeconds(first))
        difference[part] -= seconds;
    std::vector<LedgerDifference> out;
    const double negligible = 1e-6 * first.seconds;
    for (const auto& [part, seconds] : difference)
        if (std::abs(seconds) > negligible)
            out.push_back({part, seconds});
    std::stable_sort(out.begin(), out.end(), [](const LedgerDifference& a, const LedgerDifference& b) {
        return std::abs(a.seconds) > std::abs(b.seconds);
    });
    if (out.size() > count)
        out.resize(count);
    return out;
}

std::string unevenStagesExplanation(const PlannedLayout& layout) {
    const ParallelLayout& l = layout.input.parallel;
    if (l.pp < 2 || !hasUnevenStages(l))
        return {};
    auto n = [](double v) { return formatNumber(v); };
    const double L = layout.input.model.layers;
    const StageLayerCounts c = stageLayerCounts(l, L);
    std::string text = "uneven stages: " + n(L) + " layers over " + n(l.pp) + " stages as " + n(c.first) +
                       (l.pp > 2 ? " + " + n(l.pp - 2) + " × " + n(c.middle) : std::string()) + " + " +
                       n(c.last);
    text += std::fmod(L, l.pp) != 0 ? " (" + n(l.pp) + " does not divide " + n(L) + ": no even split)"
                                    : std::string();
    // The ends' own work: the first stage also runs the embedding, the last the head and the loss.
    if (l.firstStageLayers)
        text += "; the first stage, which also runs the embedding, holds " + n(c.first);
    if (l.lastStageLayers)
        text += std::string(l.firstStageLayers ? " and" : ";") +
                " the last, which also runs the head and the loss, " + n(c.last);
    text += " (Megatron-LM's --decoder-first-pipeline-num-layers and --decoder-last-pipeline-num-layers)";
    constexpr std::string_view kTimed = "uneven stages: "; // step_time.cpp's note: which stage it timed
    for (const std::string& line : layout.stepTime.notModelled)
        if (line.starts_with(kTimed)) {
            const std::string stage = line.substr(kTimed.size(), line.find(',') - kTimed.size());
            text += "; " + stage + ", the slowest, and 1F1B runs at its pace";
        }
    return text;
}

} // namespace napkin
