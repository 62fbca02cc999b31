// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_memory_command.h"

#include "cli/number_option.h"
#include "engine/benchmarks/memory_bandwidth_run.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/memory_bandwidth_report.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>

namespace napkin::cli {
namespace {

struct MemoryOptions {
    bool json = false;
    std::string device = "cpu", bytes;
    int repeats = 11, warmup = 2, threads = 0;
};

void printText(const MemoryBandwidthResult& r, std::ostream& out) {
    out << r.deviceName << " (" << r.device << "): " << r.method << ", "
        << formatBytes(static_cast<double>(r.bytesPerArray), ByteUnits::binary) << " per array";
    if (r.threads > 0)
        out << ", " << r.threads << " threads";
    out << "\n  size: " << r.sizeRule << "\n  bytes: " << r.byteConvention << "\n  median "
        << formatDuration(r.timing.medianSeconds) << " (p20 " << formatDuration(r.timing.p20Seconds)
        << ", p80 " << formatDuration(r.timing.p80Seconds) << ") over " << r.timing.samples
        << " runs: " << formatBytes(r.bytesPerSecond) << "/s" << (r.verified ? "" : " (RESULT NOT VERIFIED)")
        << '\n';
    out << "  promise: ";
    if (r.promisedBytesPerSecond)
        out << formatBytes(*r.promisedBytesPerSecond) << "/s (" << r.promiseSource << "), measured "
            << formatNumber(100 * r.bytesPerSecond / *r.promisedBytesPerSecond) << " % of it\n";
    else
        out << r.promiseSource << '\n';
}

int runMemory(const MemoryOptions& o, std::ostream& out) {
    MemoryBandwidthOptions run;
    run.bytesPerArray = parseBytesPerArrayOption("--bytes", o.bytes);
    if (o.threads > 0 && o.device != "cpu")
        throw UsageError("--threads sets cpu threads; --device " + o.device + " has none to set");
    run.repeats = o.repeats;
    run.warmupRuns = o.warmup;
    run.threads = o.threads;
    std::string why;
    const std::optional<MemoryBandwidthResult> result = runMemoryBandwidth(o.device, run, &why);
    if (!result)
        throw UsageError("--device " + o.device + ": " + why);
    if (o.json)
        out << jsonText(memoryBandwidthJson(*result));
    else
        printText(*result, out);
    return 0;
}

} // namespace

Command addBenchMemoryCommand(CLI::App& bench) {
    auto o = std::make_shared<MemoryOptions>();
    CLI::App* cmd = bench.add_subcommand(
        "memory", "Measure memory bandwidth: STREAM triad on the cpu, device-to-device copies on cuda");
    cmd->add_option("--device", o->device, "cpu or cuda (default cpu)");
    cmd->add_option("--bytes", o->bytes,
                    "bytes per array, K/M/G binary (default max(4 × last-level cache, 256 MiB))");
    cmd->add_option("--repeats", o->repeats, "timed runs; the median is reported (default 11)")
        ->check(CLI::Range(1, 10000));
    cmd->add_option("--warmup", o->warmup, "untimed runs before them (default 2)")
        ->check(CLI::Range(0, 1000));
    cmd->add_option("--threads", o->threads, "cpu threads (default: one per physical core)")
        ->check(CLI::Range(1, 1024));
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o](std::ostream& out, std::ostream&) { return runMemory(*o, out); }};
}

} // namespace napkin::cli
