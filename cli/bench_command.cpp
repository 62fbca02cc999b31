// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_command.h"

#include "cli/bench_copy_command.h"
#include "cli/bench_matmul_command.h"
#include "cli/bench_memory_command.h"
#include "cli/bench_plan_command.h"
#include "cli/bench_reserved_command.h"
#include "cli/bench_train_command.h"
#include "engine/benchmarks/accounting_benchmark.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/accounting_report.h"
#include "engine/report/json_values.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>

namespace napkin::cli {
namespace {

struct BenchOptions {
    bool json = false;
    int repeats = 51;
    std::string setup{kDefaultAccountingBenchmark};
};

int runAccountBenchmark(const BenchOptions& o, std::ostream& out, std::ostream& err) {
    const std::optional<AccountingBenchmarkSetup> setup = accountingBenchmarkSetup(o.setup);
    if (!setup) {
        err << "bench account: unknown --setup '" << o.setup << "'; known: " << accountingBenchmarkSetupIds()
            << "\n";
        return 2;
    }
    const WorkCounts work = accountingWork(setup->input);
    const TimingSummary t = benchmarkAccounting(setup->input, o.repeats);
    if (o.json) {
        out << jsonText(accountingBenchmarkJson(*setup, t, work));
    } else {
        out << "one full accounting recompute (" << setup->configuration << "): median "
            << formatDuration(t.medianSeconds) << ", p20 " << formatDuration(t.p20Seconds) << ", p80 "
            << formatDuration(t.p80Seconds) << " over " << t.samples << " samples (target < "
            << formatDuration(setup->targetSeconds) << ")\n"
            << "work per recompute: " << work.peakEvaluations << " peak evaluations with formulas, "
            << work.fastPeaks << " peaks alone, " << work.timelineBuilds << " timelines, "
            << work.activationLedgers << " activation ledgers, " << work.formattedNumbers
            << " numbers formatted\n";
    }
    return 0;
}

} // namespace

Command addBenchCommand(CLI::App& parent) {
    auto options = std::make_shared<BenchOptions>();
    CLI::App* bench = parent.add_subcommand("bench", "Benchmarks: measured, with their method");
    bench->require_subcommand(1);
    CLI::App* account = bench->add_subcommand("account", "Time one full recompute of the accounting");
    account->add_flag("--json", options->json, "print one JSON document");
    account->add_option("--repeats", options->repeats, "timed samples (default 51)")
        ->check(CLI::Range(5, 100000));
    account->add_option("--setup", options->setup,
                        "what to account: gpt2-small (default), deepseek-v3, or a setup preset's id");
    const Command matmul = addBenchMatmulCommand(*bench);
    const Command train = addBenchTrainCommand(*bench);
    const Command copy = addBenchCopyCommand(*bench);
    const Command alloc = addBenchAllocCommand(*bench);
    const Command memory = addBenchMemoryCommand(*bench);
    const Command plan = addBenchPlanCommand(*bench);
    const Command reserved = addBenchReservedCommand(*bench);
    return {bench,
            [options, account, matmul, train, copy, alloc, memory, plan, reserved](std::ostream& out, std::ostream& err) {
                if (account->parsed())
                    return runAccountBenchmark(*options, out, err);
                if (matmul.app->parsed())
                    return matmul.execute(out, err);
                if (train.app->parsed())
                    return train.execute(out, err);
                if (copy.app->parsed())
                    return copy.execute(out, err);
                if (alloc.app->parsed())
                    return alloc.execute(out, err);
                if (memory.app->parsed())
                    return memory.execute(out, err);
                if (plan.app->parsed())
                    return plan.execute(out, err);
                if (reserved.app->parsed())
                    return reserved.execute(out, err);
                return 2;
            }};
}

} // namespace napkin::cli
