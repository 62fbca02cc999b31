#include "cli/bench_command.h"

#include "engine/benchmarks/accounting_benchmark.h"
#include "cli/accounting_json.h"
#include "cli/bench_copy_command.h"
#include "cli/bench_matmul_command.h"
#include "cli/bench_train_command.h"
#include "engine/numerics/quantity_format.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>

namespace napkin::cli {
namespace {

struct BenchOptions {
    bool json = false;
    int repeats = 51;
};

// A GPT-2 small configuration: the heaviest formula strings the accounting builds.
AccountingInput benchmarkInput() {
    AccountingInput in;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = 768;
    in.model.layers = 12;
    in.model.heads = 12;
    in.model.vocab = 50257;
    in.model.seq = 1024;
    in.batch = 8;
    in.trainingTokens = 300e9;
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpus = 8;
    in.zeroStage = 1;
    return in;
}

int runAccountBenchmark(const BenchOptions& o, std::ostream& out) {
    const TimingSummary t = benchmarkAccounting(benchmarkInput(), o.repeats);
    if (o.json) {
        nlohmann::json doc = {{"benchmark", "account"},
                              {"configuration", "GPT-2 small, mixed-bf16, AdamW, 8 x H100-SXM, ZeRO-1"},
                              {"seconds_median", t.medianSeconds},
                              {"seconds_p20", t.p20Seconds},
                              {"seconds_p80", t.p80Seconds},
                              {"seconds_min", t.minSeconds},
                              {"seconds_max", t.maxSeconds},
                              {"samples", t.samples},
                              {"target_seconds", 20e-6},
                              {"meets_target", t.medianSeconds < 20e-6}};
        out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        out << "one full accounting recompute (GPT-2 small): median " << formatDuration(t.medianSeconds)
            << ", p20 " << formatDuration(t.p20Seconds) << ", p80 " << formatDuration(t.p80Seconds)
            << " over " << t.samples << " samples (target < 20 µs)\n";
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
    const Command matmul = addBenchMatmulCommand(*bench);
    const Command train = addBenchTrainCommand(*bench);
    const Command copy = addBenchCopyCommand(*bench);
    const Command alloc = addBenchAllocCommand(*bench);
    return {bench, [options, account, matmul, train, copy, alloc](std::ostream& out, std::ostream& err) {
                if (account->parsed())
                    return runAccountBenchmark(*options, out);
                if (matmul.app->parsed())
                    return matmul.execute(out, err);
                if (train.app->parsed())
                    return train.execute(out, err);
                if (copy.app->parsed())
                    return copy.execute(out, err);
                if (alloc.app->parsed())
                    return alloc.execute(out, err);
                return 2;
            }};
}

} // namespace napkin::cli
