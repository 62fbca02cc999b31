// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_copy_command.h"

#include "cli/number_option.h"
#include "engine/benchmarks/copy_sweep.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/copy_report.h"
#include "engine/report/json_values.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <stdexcept>

namespace napkin::cli {
namespace {

struct CopyOptions {
    bool json = false;
    std::string device = "cuda", sizes;
    int repeats = 11, warmup = 2;
};

int runCopy(const CopyOptions& o, std::ostream& out) {
    std::vector<std::uint64_t> sizes = defaultCopySizes();
    if (!o.sizes.empty()) {
        try {
            sizes = parseCopySizes(o.sizes);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--sizes: ") + e.what());
        }
    }
    CopyRunOptions run;
    run.repeats = o.repeats;
    run.warmupRuns = o.warmup;
    std::string why;
    const std::optional<CopySweep> sweep = runCopyBenchmark(o.device, copyCases(sizes), run, &why);
    if (!sweep)
        throw UsageError("--device " + o.device + ": " + why);
    if (o.json) {
        out << jsonText(copySweepJson(*sweep, run));
        return 0;
    }
    out << sweep->deviceName << ", host link promise: "
        << (sweep->promisedBytesPerSecond
                ? std::to_string(*sweep->promisedBytesPerSecond / 1e9) + " GB/s per direction"
                : std::string("no promise"))
        << '\n';
    for (const CopyResult& r : sweep->results) {
        out << copyDirectionName(r.copy.direction) << ' ' << hostMemoryName(r.copy.hostMemory) << ' '
            << r.copy.bytes << " B: ";
        if (!r.ok) {
            out << "failed: " << r.error << '\n';
            continue;
        }
        out << "median " << formatDuration(r.timing.medianSeconds) << " (p20 "
            << formatDuration(r.timing.p20Seconds) << ", p80 " << formatDuration(r.timing.p80Seconds) << "), "
            << r.bytesPerSecond / 1e9 << " GB/s\n";
    }
    return 0;
}

int runAlloc(const std::string& device, bool json, std::ostream& out) {
    std::string why;
    const std::optional<AllocCheck> check = runAllocCheck(device, &why);
    if (!check)
        throw UsageError("--device " + device + ": " + why);
    if (json) {
        out << jsonText(allocCheckJson(*check));
        return 0;
    }
    out << check->deviceName << ": two 32x32 fp32 tensors, expected " << check->expectedBytes
        << " bytes; accounting allocator " << check->allocatorBytes << " bytes; cudaMemGetInfo delta "
        << check->memGetInfoDeltaBytes << " bytes (driver granularity)\n";
    return 0;
}

} // namespace

Command addBenchCopyCommand(CLI::App& bench) {
    auto o = std::make_shared<CopyOptions>();
    CLI::App* cmd = bench.add_subcommand(
        "copy", "Time host<->device copies (pageable and pinned) against the PCIe promise");
    cmd->add_option("--device", o->device, "cuda (default cuda; the cpu has no device memory)");
    cmd->add_option("--sizes", o->sizes, "bytes, comma-separated, K/M/G binary (default 4K,16K,...,1G)");
    cmd->add_option("--repeats", o->repeats, "timed copies per case (default 11)")
        ->check(CLI::Range(1, 10000));
    cmd->add_option("--warmup", o->warmup, "untimed copies before them (default 2)")
        ->check(CLI::Range(0, 1000));
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o](std::ostream& out, std::ostream&) { return runCopy(*o, out); }};
}

Command addBenchAllocCommand(CLI::App& bench) {
    auto device = std::make_shared<std::string>("cuda");
    auto json = std::make_shared<bool>(false);
    CLI::App* cmd =
        bench.add_subcommand("alloc", "Allocate two 32x32 fp32 tensors on the device and count the bytes");
    cmd->add_option("--device", *device, "cuda (default cuda)");
    cmd->add_flag("--json", *json, "print one JSON document");
    return {cmd, [device, json](std::ostream& out, std::ostream&) { return runAlloc(*device, *json, out); }};
}

} // namespace napkin::cli
