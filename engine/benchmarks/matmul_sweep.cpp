// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/matmul_sweep.h"

#include "engine/benchmarks/matmul_error_bound.h"
#include "engine/hardware/roofline.h"
#include "engine/numerics/quantity_format.h"

#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace napkin {
namespace {

using Clock = std::chrono::steady_clock;

class Cancelled : public std::exception {};

// Times `calls` complete runs; throws Cancelled when the callback says stop.
// keepGoing is asked once before the timed region (cheap GEMMs have no panels to ask between).
// Problems that time themselves on a device (MatmulProblem::timedRun) report device seconds instead.
double timeRuns(MatmulProblem& problem, int calls, const KeepGoing& keepGoing) {
    if (keepGoing && !keepGoing())
        throw Cancelled();
    // A GPU problem times itself on the device (events); only its "stop early" answer is asked above.
    if (const std::optional<double> device = problem.timedRun(calls, {}))
        return *device;
    const auto start = Clock::now();
    for (int i = 0; i < calls; ++i)
        if (!problem.run(keepGoing))
            throw Cancelled();
    const std::chrono::duration<double> elapsed = Clock::now() - start;
    return elapsed.count() / calls;
}

// "fp32 1024³" for a cube, "bf16 4096×4096×1024" otherwise: the case as the progress line names it.
std::string caseName(const MatmulCase& s) {
    const std::string dtype(benchDtypeName(s.dtype));
    if (s.m == s.n && s.n == s.k)
        return dtype + " " + std::to_string(s.n) + "³";
    return dtype + " " + std::to_string(s.m) + "×" + std::to_string(s.n) + "×" + std::to_string(s.k);
}

} // namespace

double matmulFlops(const MatmulCase& s) {
    return 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
}

SizeListRules matmulSizeRules() {
    SizeListRules rules;
    rules.minimum = 1;
    rules.maximum = 65536;
    return rules;
}

std::optional<std::vector<MatmulCase>> squareMatmulCases(std::string_view sizes, BenchDtype dtype,
                                                         std::string* error) {
    const SizeList list = parseSizeList(sizes, matmulSizeRules());
    if (!list.ok()) {
        if (error)
            *error = list.error;
        return std::nullopt;
    }
    std::vector<MatmulCase> cases;
    for (double n : list.sizes)
        cases.push_back({static_cast<long>(n), static_cast<long>(n), static_cast<long>(n), dtype});
    return cases;
}

std::optional<MatmulCase> matmulShapeCase(std::string_view shape, BenchDtype dtype, std::string* error) {
    SizeListRules rules = matmulSizeRules();
    rules.separators = {"x"};
    const SizeList list = parseSizeList(shape, rules);
    std::string why = list.error;
    if (list.ok() && list.sizes.size() != 3)
        why = "expected MxNxK (e.g. 4096x4096x1024), got '" + std::string(shape) + "'";
    if (!why.empty()) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    return MatmulCase{static_cast<long>(list.sizes[0]), static_cast<long>(list.sizes[1]),
                      static_cast<long>(list.sizes[2]), dtype};
}

MatmulSweep runMatmulSweep(BenchmarkBackend& backend, const std::vector<MatmulCase>& cases,
                           const MatmulRunOptions& options, const ProgressCallback& progress) {
    MatmulSweep sweep;
    sweep.device = backend.deviceInfo();
    sweep.options = options;
    const int count = static_cast<int>(cases.size());
    BenchmarkProgress state;
    state.caseCount = count;
    bool stop = false;
    bool spunUp = false;
    auto report = [&](int index, const char* phase, double within, const std::string& step) {
        state.caseIndex = index;
        state.phase = phase;
        state.detail = caseName(cases[static_cast<std::size_t>(index)]) + " · " + step;
        state.fraction = count > 0 ? (index + within) / count : 1.0;
        if (!stop && progress && !progress(state))
            stop = true;
        return !stop;
    };

    for (int index = 0; index < count && !stop; ++index) {
        const MatmulCase& shape = cases[static_cast<std::size_t>(index)];
        MatmulResult r;
        r.shape = shape;
        r.flops = matmulFlops(shape);
        if (const auto it =
                sweep.device.promisedFlopsPerSecond.find(std::string(benchDtypeName(shape.dtype)));
            it != sweep.device.promisedFlopsPerSecond.end())
            r.promisedFlopsPerSecond = it->second;
        if (!report(index, "prepare", 0, "preparing"))
            break;
        try {
            if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0)
                throw std::invalid_argument("matmul sizes must be positive");
            if (std::string why = backend.unsupportedReason(shape.dtype); !why.empty())
                throw std::invalid_argument(why);
            auto problem = backend.prepareMatmul(shape, options.seed + static_cast<std::uint64_t>(index));
            const MatmulProblem::Kernel kernel = problem->kernel();
            r.cpuBackend = kernel.cpuBackend;
            r.implementation = kernel.implementation;
            const KeepGoing warmKeepGoing = [&] {
                return report(index, "warm-up", 0.1, "warm-up run " + std::to_string(r.warmupRuns + 1));
            };
            // A GPU's clock ramps up from idle: before the first case's warm-up, GEMMs back to back for
            // gpuSpinUpSeconds of device time (torch's side does the same: scripts/compare_torch_mm.py).
            if (!spunUp && sweep.device.backend == "cuda") {
                double spent = 0;
                for (int calls = 0; spent < options.gpuSpinUpSeconds && calls < 100000; ++calls)
                    spent += timeRuns(*problem, 1, warmKeepGoing);
            }
            spunUp = true;
            // Warm-up: caches, page faults, thread pool start, clock ramp. Stop once two consecutive
            // single-run timings agree within the tolerance (or at the cap).
            double previous = timeRuns(*problem, 1, warmKeepGoing);
            r.warmupRuns = 1;
            while (r.warmupRuns < options.maxWarmupRuns) {
                const double now = timeRuns(*problem, 1, warmKeepGoing);
                ++r.warmupRuns;
                const bool stable =
                    std::abs(now - previous) <= options.warmupTolerance * std::max(now, previous);
                previous = now;
                if (stable)
                    break;
            }
            r.callsPerSample =
                previous >= options.minSampleSeconds
                    ? 1
                    : static_cast<int>(std::ceil(options.minSampleSeconds / std::max(previous, 1e-9)));
            std::vector<double> samples;
            for (int rep = 0; rep < options.repeats; ++rep) {
                const double within = 0.2 + 0.7 * rep / std::max(1, options.repeats);
                const std::string step =
                    "repeat " + std::to_string(rep + 1) + "/" + std::to_string(options.repeats);
                samples.push_back(timeRuns(*problem, r.callsPerSample,
                                           [&] { return report(index, "timing", within, step); }));
            }
            r.timing = summarizeTimings(std::move(samples));
            if (!report(index, "verify", 0.95, "verifying"))
                break;
            r.maxRelError =
                problem->maxRelativeError(options.verifySamples, options.seed ^ 0x9e3779b97f4a7c15ULL);
            r.verifiedEntries = options.verifySamples;
            r.flopsPerSecond = r.timing.medianSeconds > 0 ? r.flops / r.timing.medianSeconds : 0;
            if (r.promisedFlopsPerSecond && *r.promisedFlopsPerSecond > 0)
                r.mfu = r.flopsPerSecond / *r.promisedFlopsPerSecond;
            // Verification decides ok: a result beyond its dtype's rounding bound is wrong, however fast.
            const MatmulErrorBound bound =
                matmulErrorBound(shape, kernel.cpuBackend.empty() ? sweep.device.backend : kernel.cpuBackend);
            r.maxRelErrorBound = bound.value;
            r.maxRelErrorBoundFormula = bound.formula;
            r.error = matmulVerificationFailure(r.maxRelError, bound);
            r.ok = r.error.empty();
        } catch (const Cancelled&) {
            stop = true;
            break;
        } catch (const std::exception& e) {
            r.ok = false;
            r.error = e.what();
        }
        sweep.results.push_back(std::move(r));
        if (progress) { // the case as it lands, not at the end of the sweep
            BenchmarkProgress done = state;
            done.caseIndex = index;
            done.phase = "done";
            done.detail = caseName(shape) + " · done";
            done.fraction = static_cast<double>(index + 1) / count;
            done.finishedCase = &sweep.results.back();
            if (!progress(done))
                stop = index + 1 < count; // every case ran: the sweep is whole, not cancelled
        }
    }
    sweep.cancelled = stop;
    return sweep;
}

MatmulCaveats matmulCaveats(const MatmulResult& r, const MatmulRunOptions& options) {
    MatmulCaveats c;
    if (!r.ok)
        return c;
    c.abovePeak = r.mfu && *r.mfu > 1.0 + kAboveRoofTolerance;
    c.shortSamples = r.timing.medianSeconds * r.callsPerSample < 0.5 * options.minSampleSeconds;
    return c;
}

std::string matmulCaveatText(const MatmulResult& r, const MatmulRunOptions& options) {
    const MatmulCaveats c = matmulCaveats(r, options);
    std::string text;
    if (c.abovePeak)
        text = "above the peak: MFU " + formatNumber(std::round(100 * *r.mfu)) +
               " %, faster than the device can compute; a timing or unit error";
    if (c.shortSamples) {
        if (!text.empty())
            text += "; ";
        text += "samples of " + formatDuration(r.timing.medianSeconds * r.callsPerSample) + ", under the " +
                formatDuration(options.minSampleSeconds) + " a sample needs to be trusted";
    }
    return text;
}

} // namespace napkin
