// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_reserved_command.h"

#include "engine/accounting/memory_timeline.h"
#include "engine/allocator/step_reserved.h"
#include "engine/benchmarks/accounting_benchmark.h"
#include "engine/numerics/quantity_format.h"
#include "engine/numerics/timing_summary.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace napkin::cli {
namespace {

struct BenchReservedOptions {
    int repeats = 51;
    int calls = 50;
    std::string setup{kDefaultAccountingBenchmark};
};

/// Warm-up, then `repeats` samples of `calls` calls each (steady clock); each sample the mean per call.
template <typename Work> TimingSummary timeCalls(int repeats, int calls, Work work) {
    using Clock = std::chrono::steady_clock;
    double sink = 0; // keeps the optimiser from discarding the work
    for (int i = 0; i < calls; ++i)
        sink += work();
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(repeats));
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        for (int i = 0; i < calls; ++i)
            sink += work();
        const std::chrono::duration<double> elapsed = Clock::now() - start;
        samples.push_back(elapsed.count() / calls);
    }
    TimingSummary t = summarizeTimings(std::move(samples));
    if (sink < 0) // never true; makes `sink` observable
        t.samples = -1;
    return t;
}

std::string line(const TimingSummary& t) {
    return "median " + formatDuration(t.medianSeconds) + ", p20 " + formatDuration(t.p20Seconds) + ", p80 " +
           formatDuration(t.p80Seconds) + " over " + std::to_string(t.samples) + " samples";
}

int execute(const BenchReservedOptions& o, std::ostream& out, std::ostream& err) {
    const std::optional<AccountingBenchmarkSetup> setup = accountingBenchmarkSetup(o.setup);
    if (!setup) {
        err << "napkin-cli: --setup: unknown '" << o.setup << "'; known: " << accountingBenchmarkSetupIds()
            << "\n";
        return 2;
    }
    const AccountingInput& input = setup->input;
    const AccountingResult result = account(input, *GpuCatalog::builtIn().find(input.gpu));
    const MemoryTimeline steady = memoryTimeline(input, result);
    const StepAllocations allocations = stepAllocations(input, result, 2, &steady);
    const StepReserved probe = stepReserved(input, result, AllocatorConfig{}, 2, &steady);
    // stepReserved as the Accounting page calls it (the chart's steady timeline given), and the replay
    // of its allocator events alone.
    const TimingSummary whole = timeCalls(o.repeats, o.calls, [&] {
        return stepReserved(input, result, AllocatorConfig{}, 2, &steady).peakReservedBytes;
    });
    const TimingSummary replay = timeCalls(o.repeats, o.calls, [&] {
        return static_cast<double>(replayAllocator(allocations.events).peakReservedBytes);
    });
    out << "the step through the simulated caching allocator (" << setup->configuration << "), "
        << allocations.events.size() << " allocator events"
        << (probe.error.empty() ? std::string() : " (refused: " + probe.error + ")") << "\n"
        << "stepReserved: " << line(whole) << "\n"
        << "replay alone: " << line(replay) << "\n";
    return 0;
}

} // namespace

Command addBenchReservedCommand(CLI::App& bench) {
    auto options = std::make_shared<BenchReservedOptions>();
    CLI::App* sub = bench.add_subcommand(
        "reserved", "Time the caching-allocator simulation of one predicted step (the reserved memory)");
    sub->add_option("--repeats", options->repeats, "timed samples (default 51)")
        ->check(CLI::Range(5, 100000));
    sub->add_option("--calls", options->calls, "calls per sample (default 50)")->check(CLI::Range(1, 100000));
    sub->add_option("--setup", options->setup,
                    "what to simulate: gpt2-small (default), deepseek-v3, or a setup preset's id");
    return {sub, [options](std::ostream& out, std::ostream& err) { return execute(*options, out, err); }};
}

} // namespace napkin::cli
