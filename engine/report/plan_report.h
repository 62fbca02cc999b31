// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The layout search's answer (engine/planning/layout_plan.h) as JSON: `napkin-cli plan --json`
// (docs/cli.md), each layout with the `napkin-cli account` line that reproduces it.
#include "engine/planning/layout_search.h"
#include "engine/planning/plan_benchmark.h"
#include "engine/report/cli_command_line.h"

#include <nlohmann/json.hpp>

#include <string>

namespace napkin {

/// What a plan's command lines name besides the setup: the model's own words (--config), the files it
/// read and the step-time option it used.
struct PlanCommandContext {
    const CommandModelBase* model = nullptr; ///< --config's words; null: the model as accountCommandLine names it
    std::string gpuCatalog;      ///< --gpu-catalog FILE; empty: none
    std::string hardwareProfile; ///< --hardware-profile FILE; empty: the published profile
    bool noDataParallelOverlap = false; ///< --no-dp-overlap
};

/// `napkin-cli account … --json` for one layout (accountCommandLine), with the context's options.
std::string plannedAccountCommandLine(const AccountingInput& input, const PlanCommandContext& context);

/// `napkin-cli plan … [--top K] [--gpus-per-node N] [--global-batch G] [--exhaustive] --json` for `base`.
std::string planCommandLine(const AccountingInput& base, const PlanOptions& options,
                            const PlanCommandContext& context);

/// {command, why_none, setup{…}, basis, pruning, counts{…}, layouts[…], yours{…}, no_fit, refusals[…]}:
/// every field in docs/cli.md, "napkin-cli plan".
nlohmann::json layoutPlanJson(const AccountingInput& base, const LayoutPlan& plan, const PlanOptions& options,
                              const PlanCommandContext& context);

/// `napkin-cli bench plan --json`: {benchmark, setup, configuration, seconds_median, seconds_p20,
/// seconds_p80, seconds_min, seconds_max, samples, target_seconds, meets_target, counts{…},
/// same_counts_each_time}.
nlohmann::json planBenchmarkJson(const PlanBenchmarkSetup& setup, const PlanBenchmarkRun& run);

} // namespace napkin
