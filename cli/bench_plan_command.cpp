// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_plan_command.h"

#include "engine/numerics/quantity_format.h"
#include "engine/planning/plan_benchmark.h"
#include "engine/report/json_values.h"
#include "engine/report/plan_report.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>

namespace napkin::cli {
namespace {

struct BenchPlanOptions {
    bool json = false;
    int repeats = 5;
    std::string setup{kDefaultPlanBenchmark};
};

int execute(const BenchPlanOptions& o, std::ostream& out, std::ostream& err) {
    const std::optional<PlanBenchmarkSetup> setup = planBenchmarkSetup(o.setup);
    if (!setup) {
        err << "napkin-cli: --setup: unknown '" << o.setup << "'; known: " << planBenchmarkSetupIds() << "\n";
        return 2;
    }
    const PlanBenchmarkRun run = benchmarkPlan(*setup, o.repeats);
    if (o.json) {
        out << jsonText(planBenchmarkJson(*setup, run));
        return 0;
    }
    const TimingSummary& t = run.timing;
    const PlanCounts& c = run.counts;
    auto count = [](std::int64_t v) { return formatNumber(static_cast<double>(v)); };
    out << "one layout search (" << setup->configuration << "): median " << formatDuration(t.medianSeconds)
        << ", p20 " << formatDuration(t.p20Seconds) << ", p80 " << formatDuration(t.p80Seconds) << " over "
        << t.samples << " samples (target " << formatDuration(setup->targetSeconds) << ")\n"
        << "work per search: " << count(c.considered) << " candidates, " << count(c.invalid) << " invalid, "
        << count(c.pruned) << " pruned, " << count(c.refusedForMemory) << " over memory, " << count(c.notTimed)
        << " not timed, " << count(c.timed) << " timed\n";
    return 0;
}

} // namespace

Command addBenchPlanCommand(CLI::App& bench) {
    auto options = std::make_shared<BenchPlanOptions>();
    CLI::App* sub = bench.add_subcommand("plan", "Time one layout search (napkin-cli plan)");
    sub->add_flag("--json", options->json, "print one JSON document");
    sub->add_option("--repeats", options->repeats, "timed searches (default 5)")->check(CLI::Range(1, 1000));
    sub->add_option("--setup", options->setup, "what to plan: gpt3-175b-1024 (default) or gpt2-small-8");
    return {sub, [options](std::ostream& out, std::ostream& err) { return execute(*options, out, err); }};
}

} // namespace napkin::cli
