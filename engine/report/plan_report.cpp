// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/plan_report.h"

#include "engine/planning/plan_explanation.h"
#include "engine/report/json_values.h"
#include "engine/steptime/step_time_summary.h"

#include <string_view>

namespace napkin {
namespace {

using nlohmann::json;

constexpr std::string_view kJson = " --json";
constexpr std::size_t kLargestRows = 5;

std::string withoutJson(std::string line) {
    if (line.ends_with(kJson))
        line.resize(line.size() - kJson.size());
    return line;
}

json layoutJson(const LayoutChoice& c, double gpus) {
    const ParallelLayout& l = c.parallel;
    return {{"tp", jsonNumber(l.tp)},
            {"pp", jsonNumber(l.pp)},
            {"virtual_stages", jsonNumber(l.virtualStages)},
            {"first_stage_layers", l.firstStageLayers ? jsonNumber(*l.firstStageLayers) : json(nullptr)},
            {"last_stage_layers", l.lastStageLayers ? jsonNumber(*l.lastStageLayers) : json(nullptr)},
            {"cp", jsonNumber(l.cp)},
            {"ep", jsonNumber(l.ep)},
            {"dp", jsonNumber(dataParallelSize(l, gpus))},
            {"sp", l.sp},
            {"micro_batch", jsonNumber(c.microBatch)},
            {"microbatches", jsonNumber(l.microbatches)},
            {"recompute", std::string(recomputeName(c.recompute))},
            {"zero", c.zeroStage},
            {"shard_group", jsonNumber(c.shardGroup)},
            {"attention_impl", std::string(attentionImplName(c.attention))}};
}

json plannedJson(const PlannedLayout& p, const PlanCommandContext& context) {
    const StepTime& t = p.stepTime;
    auto timed = [&](double v) { return t.predicted ? jsonNumber(v) : json(nullptr); };
    json rows = json::array();
    for (const StepTimeRow* row : largestStepRows(t, kLargestRows))
        rows.push_back({{"name", row->name},
                        {"phase", std::string(stepTimePhaseName(row->phase))},
                        {"kind", std::string(stepTimeKindName(row->kind))},
                        {"seconds", jsonNumber(row->seconds)},
                        {"formula", row->formula}});
    json losesBy = json::array();
    for (const LedgerDifference& d : p.losesBy)
        losesBy.push_back({{"part", d.part}, {"seconds", jsonNumber(d.seconds)}});
    return {{"rank", p.rank > 0 ? json(p.rank) : json(nullptr)},
            {"rank_at_most", p.rank > 0 ? json(p.rankAtMost) : json(nullptr)},
            {"layout", layoutJson(p.choice, p.input.gpus)},
            {"summary", layoutChoiceText(p.choice, p.input.gpus)},
            {"step_seconds", timed(t.seconds)},
            {"tokens_per_second", timed(t.tokensPerSecond)},
            {"mfu", timed(t.mfu)},
            {"hfu", timed(t.hfu)},
            {"peak_memory_bytes", jsonNumber(p.peakBytes)},
            {"required_bytes", jsonNumber(p.requiredBytes)},
            {"usable_bytes", jsonNumber(p.usableBytes)},
            {"slower_than_first", timed(p.slowerThanFirst)},
            {"changes_from_first", p.changesFromFirst},
            {"loses_by", losesBy},
            {"stages", p.stages.empty() ? json(nullptr) : json(p.stages)},
            {"largest_rows", rows},
            {"command", plannedAccountCommandLine(p.input, context)}};
}

json refusalJson(const PlanRefusal& r) {
    return {{"reason", r.reason}, {"candidates", r.candidates}, {"example", r.example}};
}

json countsJson(const PlanCounts& c) {
    return {{"considered", c.considered},       {"invalid", c.invalid},     {"pruned", c.pruned},
            {"refused_for_memory", c.refusedForMemory}, {"not_timed", c.notTimed}, {"timed", c.timed},
            {"bound_above_time", c.boundAboveTime}};
}

json yoursJson(const YourLayout& y, const PlanCommandContext& context) {
    json doc = {{"status", std::string(yourLayoutStatusName(y.status))},
                {"why", y.why.empty() ? json(nullptr) : json(y.why)},
                {"in_space", y.inSpace},
                {"layout", nullptr}};
    if (y.layout)
        doc["layout"] = plannedJson(*y.layout, context);
    return doc;
}

} // namespace

std::string plannedAccountCommandLine(const AccountingInput& input, const PlanCommandContext& context) {
    std::string line = withoutJson(accountCommandLine(input, context.model));
    if (!context.gpuCatalog.empty())
        line += " --gpu-catalog " + shellQuoted(context.gpuCatalog);
    if (!context.hardwareProfile.empty())
        line += " --hardware-profile " + shellQuoted(context.hardwareProfile);
    if (context.noDataParallelOverlap)
        line += " --no-dp-overlap";
    return line + std::string(kJson);
}

std::string planCommandLine(const AccountingInput& base, const PlanOptions& options,
                            const PlanCommandContext& context) {
    constexpr std::string_view account = "napkin-cli account";
    std::string line = withoutJson(plannedAccountCommandLine(base, context));
    if (line.starts_with(account))
        line.replace(0, account.size(), "napkin-cli plan");
    if (options.top != PlanOptions{}.top)
        line += " --top " + commandNumber(static_cast<double>(options.top));
    if (options.constraints.gpusPerNode > 0)
        line += " --gpus-per-node " + commandNumber(options.constraints.gpusPerNode);
    if (options.constraints.globalBatch > 0)
        line += " --global-batch " + commandNumber(options.constraints.globalBatch);
    if (!options.prune)
        line += " --exhaustive";
    return line + std::string(kJson);
}

json layoutPlanJson(const AccountingInput& base, const LayoutPlan& plan, const PlanOptions& options,
                    const PlanCommandContext& context) {
    json layouts = json::array();
    for (const PlannedLayout& p : plan.top)
        layouts.push_back(plannedJson(p, context));
    json refusals = json::array();
    for (const PlanRefusal& r : plan.refusals)
        refusals.push_back(refusalJson(r));
    json noFit = nullptr;
    if (plan.noFit) {
        noFit = {{"most_common", refusalJson(plan.noFit->mostCommon)}, {"nearest", nullptr}};
        if (plan.noFit->nearest) {
            noFit["nearest"] = plannedJson(*plan.noFit->nearest, context);
            noFit["nearest"]["over_bytes"] =
                jsonNumber(plan.noFit->nearest->requiredBytes - plan.noFit->nearest->usableBytes);
        }
    }
    return {{"command", planCommandLine(base, options, context)},
            {"why_none", plan.whyNone.empty() ? json(nullptr) : json(plan.whyNone)},
            {"setup",
             {{"gpu", base.gpu},
              {"gpus", jsonNumber(base.gpus)},
              {"gpus_per_node", jsonNumber(plan.gpusPerNode)},
              {"global_batch", jsonNumber(plan.globalBatch)},
              {"tokens_per_step", jsonNumber(plan.tokensPerStep)},
              {"top", options.top}}},
            {"basis", plan.basis},
            {"pruning", plan.pruning},
            {"counts", countsJson(plan.counts)},
            {"layouts", layouts},
            {"yours", yoursJson(plan.yours, context)},
            {"no_fit", noFit},
            {"refusals", refusals}};
}

json planBenchmarkJson(const PlanBenchmarkSetup& setup, const PlanBenchmarkRun& run) {
    const TimingSummary& t = run.timing;
    return {{"benchmark", "plan"},
            {"setup", setup.id},
            {"configuration", setup.configuration},
            {"seconds_median", t.medianSeconds},
            {"seconds_p20", t.p20Seconds},
            {"seconds_p80", t.p80Seconds},
            {"seconds_min", t.minSeconds},
            {"seconds_max", t.maxSeconds},
            {"samples", t.samples},
            {"target_seconds", setup.targetSeconds},
            {"meets_target", t.medianSeconds <= setup.targetSeconds},
            {"counts", countsJson(run.counts)},
            {"same_counts_each_time", run.sameCountsEachTime}};
}

} // namespace napkin
