// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/matmul_report.h"

#include "engine/hardware/roofline.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/csv_values.h"
#include "engine/report/device_report.h"
#include "engine/report/json_values.h"

namespace napkin {
namespace {

// A, B and C once each at their element sizes (engine/hardware/roofline.h): the bytes of the roofline's x
// axis. fp8-e4m3's C is bf16: 2 bytes, not 1.
double caseBytes(const MatmulResult& r) {
    return gemmBytes(static_cast<double>(r.shape.m), static_cast<double>(r.shape.n),
                     static_cast<double>(r.shape.k), benchDtypeBytes(r.shape.dtype),
                     benchDtypeOutputBytes(r.shape.dtype));
}

double caseIntensity(const MatmulResult& r) {
    const double bytes = caseBytes(r);
    return bytes > 0 ? r.flops / bytes : 0.0;
}

nlohmann::json resultJson(const MatmulResult& r) {
    nlohmann::json j = {{"m", r.shape.m},
                        {"n", r.shape.n},
                        {"k", r.shape.k},
                        {"dtype", benchDtypeName(r.shape.dtype)},
                        {"ok", r.ok},
                        {"error", r.ok ? nlohmann::json(nullptr) : nlohmann::json(r.error)},
                        {"flops", jsonNumber(r.flops)},
                        {"bytes", jsonNumber(caseBytes(r))},
                        {"arithmetic_intensity", caseIntensity(r)},
                        {"promised_flops_per_second", jsonOptional(r.promisedFlopsPerSecond)}};
    if (!r.cpuBackend.empty()) // which CPU library ran the case, and its kernel (absent on a GPU)
        j.update({{"cpu_backend", r.cpuBackend}, {"implementation", r.implementation}});
    // A case that ran and was verified keeps its figures, also when verification refused it (ok: false).
    if (r.verifiedEntries == 0)
        return j;
    j.update(timingJson(r.timing));
    j.update({{"calls_per_sample", r.callsPerSample},
              {"warmup_runs", r.warmupRuns},
              {"flops_per_second", r.flopsPerSecond},
              {"mfu", jsonOptional(r.mfu)},
              {"max_rel_error", r.maxRelError}, // NaN prints as null
              {"max_rel_error_bound", jsonOptional(r.maxRelErrorBound)},
              {"max_rel_error_bound_formula", r.maxRelErrorBoundFormula},
              {"verified_entries", r.verifiedEntries}});
    return j;
}

} // namespace

nlohmann::json matmulSweepJson(const MatmulSweep& sweep) {
    const MatmulRunOptions& run = sweep.options;
    nlohmann::json results = nlohmann::json::array();
    for (const MatmulResult& r : sweep.results)
        results.push_back(resultJson(r));
    return {
        {"benchmark", "matmul"},
        {"device", deviceJson(sweep.device)},
        {"method",
         {{"timer", sweep.device.backend == "cuda"
                        ? "CUDA events around each GEMM; L2 flushed (memset of twice its size) before each, "
                          "outside the timed span"
                        : "std::chrono::steady_clock"},
          {"warmup", std::string(sweep.device.backend == "cuda"
                                     ? "first case: GEMMs back to back for at least " +
                                           formatDuration(run.gpuSpinUpSeconds) + " (SM clock ramp); then "
                                     : "") +
                         "single runs until two consecutive ones agree within 5% (at most " +
                         std::to_string(run.maxWarmupRuns) + ")"},
          {"repeats", run.repeats},
          {"data", sweep.device.backend == "cuda"
                       ? "uniform in [-1, 1], drawn on the device: splitmix64 of (seed " +
                             std::to_string(run.seed) + " + case index, element index), rounded to the dtype"
                       : "uniform in [-1, 1], std::mt19937_64 seeded with " + std::to_string(run.seed) +
                             " + case index"},
          {"max_rel_error", "max over sampled entries of |c - ref| / sum_k |a_ik b_kj|, ref in long double"},
          {"flops", "2·m·n·k"},
          {"bytes", "(m·k + k·n) · input bytes + m·n · output bytes: A, B and C once each (fp8-e4m3 writes "
                    "bf16 C: 2 bytes)"},
          {"arithmetic_intensity", "flops / bytes"}}},
        {"load_average_1min", loadAverageJson()},
        {"cancelled", sweep.cancelled},
        {"results", results}};
}

std::string matmulSweepCsv(const MatmulSweep& sweep) {
    std::string csv = csvRow({"dtype",
                              "m",
                              "n",
                              "k",
                              "ok",
                              "flops",
                              "seconds_median",
                              "seconds_p20",
                              "seconds_p80",
                              "seconds_min",
                              "samples",
                              "calls_per_sample",
                              "warmup_runs",
                              "flops_per_second",
                              "promised_flops_per_second",
                              "mfu",
                              "max_rel_error",
                              "verified_entries",
                              "error",
                              "bytes",
                              "arithmetic_intensity"});
    for (const MatmulResult& r : sweep.results) {
        const auto measured = [&](double v) { return r.ok ? csvNumber(v) : std::string(); };
        csv += csvRow({std::string(benchDtypeName(r.shape.dtype)),
                       std::to_string(r.shape.m),
                       std::to_string(r.shape.n),
                       std::to_string(r.shape.k),
                       r.ok ? "true" : "false",
                       csvNumber(r.flops),
                       measured(r.timing.medianSeconds),
                       measured(r.timing.p20Seconds),
                       measured(r.timing.p80Seconds),
                       measured(r.timing.minSeconds),
                       measured(r.timing.samples),
                       measured(r.callsPerSample),
                       measured(r.warmupRuns),
                       measured(r.flopsPerSecond),
                       csvOptional(r.promisedFlopsPerSecond),
                       csvOptional(r.mfu),
                       measured(r.maxRelError),
                       measured(r.verifiedEntries),
                       csvField(r.error),
                       csvNumber(caseBytes(r)),
                       csvNumber(caseIntensity(r))});
    }
    return csv;
}

} // namespace napkin
