// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/plan_text.h"

#include "engine/numerics/quantity_format.h"
#include "engine/planning/plan_explanation.h"
#include "engine/steptime/step_time_summary.h"

#include <cstdio>
#include <sstream>

namespace napkin::cli {
namespace {

constexpr std::size_t kRowsShown = 3;

std::string count(std::int64_t value) {
    return formatNumber(static_cast<double>(value));
}

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", 100 * fraction);
    return text;
}

std::string signedSeconds(double seconds) {
    return (seconds >= 0 ? "+" : "−") + formatDuration(seconds >= 0 ? seconds : -seconds);
}

std::string differences(const std::vector<LedgerDifference>& parts) {
    std::string text;
    for (const LedgerDifference& d : parts)
        text += (text.empty() ? "" : ", ") + d.part + " " + signedSeconds(d.seconds);
    return text;
}

void writeLayout(std::ostringstream& s, const PlannedLayout& p, const PlanCommandContext& context) {
    const StepTime& t = p.stepTime;
    s << "#" << p.rank << "  " << layoutChoiceText(p.choice, p.input.gpus) << "\n";
    s << "    step " << formatDuration(t.seconds) << ", " << formatNumber(t.tokensPerSecond) << " tokens/s, MFU "
      << formatNumber(t.mfu) << "; peak " << formatBytes(p.peakBytes) << ", needs " << formatBytes(p.requiredBytes)
      << " of " << formatBytes(p.usableBytes) << " usable\n";
    if (!p.stages.empty())
        s << "    " << p.stages << "\n";
    if (p.rank > 1 && p.losesBy.empty()) // the same step: the ledgers differ nowhere
        s << "    ties #1 (" << p.changesFromFirst << ")\n";
    else if (p.rank > 1)
        s << "    " << percent(p.slowerThanFirst) << " slower than #1 (" << p.changesFromFirst
          << "); loses by " << differences(p.losesBy) << "\n";
    s << "    largest:";
    for (const StepTimeRow* row : largestStepRows(t, kRowsShown))
        s << " " << row->name << " " << formatDuration(row->seconds) << ";";
    s << "\n    " << plannedAccountCommandLine(p.input, context) << "\n";
}

void writeYours(std::ostringstream& s, const LayoutPlan& plan, const PlanCommandContext& context) {
    const YourLayout& y = plan.yours;
    switch (y.status) {
    case YourLayoutStatus::ranked: {
        const PlannedLayout& p = *y.layout;
        s << "yours: #" << p.rank;
        if (p.rankAtMost > p.rank) // pruning left some layouts undecided against yours
            s << "–#" << p.rankAtMost << " (--exhaustive ranks it exactly)";
        s << ", " << formatDuration(p.stepTime.seconds) << " a step";
        if (p.rank > 1 && !plan.top.empty())
            s << ", " << percent(p.slowerThanFirst) << " slower than #1, which changes " << p.changesFromFirst
              << "; yours loses by " << differences(p.losesBy);
        s << "\n    " << plannedAccountCommandLine(p.input, context) << "\n";
        return;
    }
    case YourLayoutStatus::doesNotFit:
        s << "yours does not fit: " << y.why << "\n";
        return;
    case YourLayoutStatus::invalid:
    case YourLayoutStatus::notTimed:
    case YourLayoutStatus::otherBatch:
        s << "yours is not ranked (" << yourLayoutStatusName(y.status) << "): " << y.why << "\n";
        return;
    }
}

} // namespace

std::string layoutPlanText(const AccountingInput& base, const LayoutPlan& plan, const PlanCommandContext& context) {
    std::ostringstream s;
    if (!plan.whyNone.empty()) {
        s << "no plan: " << plan.whyNone << "\n";
        return s.str();
    }
    const PlanCounts& c = plan.counts;
    s << "plan: " << formatNumber(base.gpus) << " × " << base.gpu << " (nodes of " << formatNumber(plan.gpusPerNode)
      << "), global batch " << formatNumber(plan.globalBatch) << " sequences = " << formatNumber(plan.tokensPerStep)
      << " tokens per step\n"
      << "step time from " << plan.basis << "\n"
      << "searched " << count(c.considered) << " layouts: " << count(c.invalid) << " invalid, " << count(c.pruned)
      << " pruned by the compute bound, " << count(c.refusedForMemory) << " over memory, " << count(c.notTimed)
      << " not timed, " << count(c.timed) << " timed\n\n";
    for (const PlannedLayout& p : plan.top)
        writeLayout(s, p, context);
    if (plan.noFit) {
        const PlanRefusal& most = plan.noFit->mostCommon;
        s << "no layout fits and is timed: " << most.reason << " rules out the most, " << count(most.candidates)
          << " of " << count(c.considered) << " (" << most.example << ")\n";
        if (const std::optional<PlannedLayout>& near = plan.noFit->nearest) {
            s << "nearest: " << layoutChoiceText(near->choice, near->input.gpus) << ", needs "
              << formatBytes(near->requiredBytes) << " of " << formatBytes(near->usableBytes) << " usable ("
              << formatBytes(near->requiredBytes - near->usableBytes) << " over)\n    "
              << plannedAccountCommandLine(near->input, context) << "\n";
        }
    }
    s << "\n";
    writeYours(s, plan, context);
    return s.str();
}

} // namespace napkin::cli
