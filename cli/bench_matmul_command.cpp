#include "cli/bench_matmul_command.h"

#include "engine/benchmarks/matmul_sweep.h"
#include "cli/accounting_json.h"
#include "cli/bench_device_json.h"
#include "cli/number_option.h"
#include "engine/numerics/quantity_format.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <ostream>

namespace napkin::cli {
namespace {

struct MatmulOptions {
    bool json = false;
    std::string device = "cpu", dtype = "fp32", sizes = "512,1024", shape;
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

nlohmann::json resultJson(const MatmulResult& r) {
    auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    nlohmann::json j = {{"m", r.shape.m}, {"n", r.shape.n}, {"k", r.shape.k}, {"dtype", benchDtypeName(r.shape.dtype)},
                        {"ok", r.ok}, {"error", r.ok ? nlohmann::json(nullptr) : nlohmann::json(r.error)},
                        {"flops", jsonNumber(r.flops)}, {"promised_flops_per_second", optional(r.promisedFlopsPerSecond)}};
    if (!r.ok)
        return j;
    j.update({{"seconds_median", r.timing.medianSeconds}, {"seconds_p20", r.timing.p20Seconds},
              {"seconds_p80", r.timing.p80Seconds}, {"seconds_min", r.timing.minSeconds},
              {"samples", r.timing.samples}, {"calls_per_sample", r.callsPerSample}, {"warmup_runs", r.warmupRuns},
              {"flops_per_second", r.flopsPerSecond}, {"mfu", optional(r.mfu)}, {"max_rel_error", r.maxRelError},
              {"verified_entries", r.verifiedEntries}});
    return j;
}

int runMatmul(const MatmulOptions& o, bool sizesGiven, std::ostream& out) {
    const std::optional<BenchDtype> dtype = benchDtypeFromName(o.dtype);
    if (!dtype)
        throw UsageError("--dtype: unknown '" + o.dtype + "' (fp32, fp64, bf16, fp16, tf32, fp8-e4m3)");
    const std::vector<MatmulCase> cases = casesFrom(o, sizesGiven, *dtype);
    auto backend = backendForDevice(o.device, o.threads);
    if (std::string why = backend->unsupportedReason(*dtype); !why.empty())
        throw UsageError(why);
    MatmulRunOptions run;
    run.repeats = o.repeats;
    run.maxWarmupRuns = o.maxWarmup;
    run.seed = o.seed;
    const MatmulSweep sweep = runMatmulSweep(*backend, cases, run);
    if (o.json) {
        nlohmann::json results = nlohmann::json::array();
        for (const MatmulResult& r : sweep.results)
            results.push_back(resultJson(r));
        nlohmann::json doc = {
            {"benchmark", "matmul"},
            {"device", deviceJson(sweep.device)},
            {"method",
             {{"timer", sweep.device.backend == "cuda"
                            ? "CUDA events around each GEMM; L2 flushed (memset of twice its size) before each, "
                              "outside the timed span"
                            : "std::chrono::steady_clock"},
              {"warmup", "single runs until two consecutive ones agree within 5% (at most " +
                             std::to_string(run.maxWarmupRuns) + ")"},
              {"repeats", run.repeats},
              {"data", "uniform in [-1, 1], std::mt19937_64 seeded with " + std::to_string(run.seed) + " + case index"},
              {"max_rel_error", "max over sampled entries of |c - ref| / sum_k |a_ik b_kj|, ref in long double"},
              {"flops", "2·m·n·k"}}},
            {"load_average_1min", loadAverageJson()},
            {"cancelled", sweep.cancelled},
            {"results", results}};
        out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return 0;
    }
    out << sweep.device.name << " (" << sweep.device.cores << " cores, " << sweep.device.simd << ")\n";
    for (const MatmulResult& r : sweep.results) {
        out << r.shape.m << "x" << r.shape.n << "x" << r.shape.k << " " << benchDtypeName(r.shape.dtype) << ": ";
        if (!r.ok) {
            out << "failed: " << r.error << '\n';
            continue;
        }
        out << "median " << formatDuration(r.timing.medianSeconds) << " (p20 " << formatDuration(r.timing.p20Seconds)
            << ", p80 " << formatDuration(r.timing.p80Seconds) << "), " << r.flopsPerSecond / 1e9 << " GFLOP/s";
        if (r.mfu)
            out << ", MFU " << *r.mfu;
        out << ", max rel error " << r.maxRelError << '\n';
    }
    return 0;
}

} // namespace

Command addBenchMatmulCommand(CLI::App& bench) {
    auto o = std::make_shared<MatmulOptions>();
    CLI::App* cmd = bench.add_subcommand("matmul", "Time C = A·B on a device, verified against a reference");
    cmd->add_option("--device", o->device, "cpu or cuda (default cpu)");
    cmd->add_option("--dtype", o->dtype, "fp32, fp64, bf16, fp16, tf32, fp8-e4m3 (default fp32)");
    CLI::Option* sizes = cmd->add_option("--sizes", o->sizes, "square sizes, comma-separated (default 512,1024)");
    cmd->add_option("--shape", o->shape, "one MxNxK case (with --sizes: in addition to them)");
    cmd->add_option("--repeats", o->repeats, "timed samples per case (default 11)")->check(CLI::Range(1, 10000));
    cmd->add_option("--max-warmup", o->maxWarmup, "warm-up runs at most (default 20)")->check(CLI::Range(1, 10000));
    cmd->add_option("--threads", o->threads, "cpu threads (default: one per physical core)")->check(CLI::Range(1, 1024));
    cmd->add_option("--seed", o->seed, "seed of the random inputs (default 42)");
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o, sizes](std::ostream& out, std::ostream&) { return runMatmul(*o, sizes->count() > 0, out); }};
}

} // namespace napkin::cli
