// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_matmul_command.h"

#include "cli/device_option.h"
#include "cli/number_option.h"
#include "cli/option_policy.h"
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/matmul_report.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>

namespace napkin::cli {
namespace {

struct MatmulOptions {
    bool json = false;
    std::string device = "cpu", dtype = "fp32", sizes = "512,1024", shape, backend;
    int repeats = 11, maxWarmup = 20, threads = 0;
    std::uint64_t seed = 42;
};

std::vector<MatmulCase> casesFrom(const MatmulOptions& o, bool sizesGiven, BenchDtype dtype) {
    std::vector<MatmulCase> cases;
    std::string error;
    if (sizesGiven || o.shape.empty()) {
        const auto square = squareMatmulCases(o.sizes, dtype, &error);
        if (!square)
            throw UsageError("--sizes: " + error);
        cases = *square;
    }
    if (!o.shape.empty()) {
        const auto shape = matmulShapeCase(o.shape, dtype, &error);
        if (!shape)
            throw UsageError("--shape: " + error);
        cases.push_back(*shape);
    }
    return cases;
}

int runMatmul(const MatmulOptions& o, bool sizesGiven, std::ostream& out) {
    const std::optional<BenchDtype> dtype = benchDtypeFromName(o.dtype);
    if (!dtype)
        throw UsageError("--dtype: unknown '" + o.dtype + "' (" + benchDtypeNames() + ")");
    const std::vector<MatmulCase> cases = casesFrom(o, sizesGiven, *dtype);
    auto backend = backendForDevice(o.device, o.threads, o.backend);
    if (std::string why = backend->unsupportedReason(*dtype); !why.empty())
        throw UsageError(why);
    MatmulRunOptions run;
    run.repeats = o.repeats;
    run.maxWarmupRuns = o.maxWarmup;
    run.seed = o.seed;
    const MatmulSweep sweep = runMatmulSweep(*backend, cases, run);
    if (o.json) {
        out << jsonText(matmulSweepJson(sweep));
        return 0;
    }
    out << sweep.device.name << " (" << sweep.device.cores << " cores, " << sweep.device.simd << ")\n";
    for (const MatmulResult& r : sweep.results) {
        out << r.shape.m << "x" << r.shape.n << "x" << r.shape.k << " " << benchDtypeName(r.shape.dtype)
            << ": ";
        if (!r.ok) {
            out << "failed: " << r.error << '\n';
            continue;
        }
        out << "median " << formatDuration(r.timing.medianSeconds) << " (p20 "
            << formatDuration(r.timing.p20Seconds) << ", p80 " << formatDuration(r.timing.p80Seconds) << "), "
            << r.flopsPerSecond / 1e9 << " GFLOP/s";
        if (r.mfu)
            out << ", MFU " << *r.mfu;
        out << ", max rel error " << r.maxRelError;
        if (!r.cpuBackend.empty())
            out << " (" << r.cpuBackend << " " << r.implementation << ")";
        out << '\n';
    }
    return 0;
}

} // namespace

Command addBenchMatmulCommand(CLI::App& bench) {
    auto o = std::make_shared<MatmulOptions>();
    CLI::App* cmd = bench.add_subcommand("matmul", "Time C = A·B on a device, verified against a reference");
    cmd->add_option("--device", o->device, "cpu or cuda (default cpu)");
    cmd->add_option("--dtype", o->dtype, "fp32, fp64, bf16, fp16, tf32, fp8-e4m3 (default fp32)");
    CLI::Option* sizes =
        cmd->add_option("--sizes", o->sizes, "square sizes, comma-separated (default 512,1024)");
    cmd->add_option("--shape", o->shape, "one MxNxK case (with --sizes: in addition to them)");
    cmd->add_option("--repeats", o->repeats, "timed samples per case (default 11)")
        ->check(CLI::Range(1, 10000));
    cmd->add_option("--max-warmup", o->maxWarmup, "warm-up runs at most (default 20)")
        ->check(CLI::Range(1, 10000));
    cmd->add_option("--threads", o->threads, "cpu threads (default: one per physical core)")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--backend", o->backend, cpuBackendHelp());
    addSeedOption(*cmd, "--seed", o->seed, "seed of the random inputs (default 42)");
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd,
            [o, sizes](std::ostream& out, std::ostream&) { return runMatmul(*o, sizes->count() > 0, out); }};
}

} // namespace napkin::cli
