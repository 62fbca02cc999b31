// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/fit_searches.h"

#include "engine/accounting/finite_answers.h"
#include "engine/accounting/fit_advice.h"
#include "engine/accounting/max_sequence.h"
#include "engine/numerics/quantity_format.h"
#include "engine/numerics/work_counts.h"
#include "engine/text/formula_text.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace napkin {
namespace {

constexpr double kLargestBatch = 1e9; // the largest batch validate() accepts (as account()'s search)

std::string n(double v) {
    return formatNumber(v);
}

// Every digit, as maxSequence()'s formula gives them: one token or sample more moves a peak of tens of
// gigabytes by about a megabyte.
std::string bytes(double v) {
    return (v == std::floor(v) ? formatExact(v) : formatShortest(v)) + " B";
}

struct Judged {
    double requiredBytes = 0; ///< what was compared with the usable memory
    bool fits = false;
};

Judged judge(const AccountingInput& in, const GpuSpec& gpu, const AllocatorConfig& config) {
    ++workCounts().fastPeaks;
    const ValuesOnly valuesOnly; // a probe: numbers alone
    const AccountingResult r = accountPeak(in, gpu);
    if (reservedFitInapplicable(in, r).empty()) {
        const StepReserved s = stepReserved(in, r, config, 2);
        if (s.error.empty()) {
            const double required = reservedRequiredBytes(r, s);
            return {required, required <= r.usableBytes.value};
        }
    }
    return {r.predictedBytes.value, r.fits}; // as judgeFit() falls back: on allocated
}

// fitsAsJudged at x = 1, 2, …, each x evaluated once; `at(x)` makes x's input.
class Probes {
public:
    Probes(const GpuSpec& gpu, const AllocatorConfig& config, std::function<AccountingInput(double)> at,
           std::function<bool(double)> valid)
        : gpu_(gpu)
        , config_(config)
        , at_(std::move(at))
        , valid_(std::move(valid)) {}

    const Judged& operator()(double x) {
        for (const auto& [probed, judged] : probes_)
            if (probed == x)
                return judged;
        const AccountingInput c = at_(x);
        Judged j = judge(c, gpu_, config_);
        j.fits = j.fits && valid_(x);
        probes_.emplace_back(x, j);
        return probes_.back().second;
    }
    bool fits(double x) { return (*this)(x).fits; }

private:
    const GpuSpec& gpu_;
    const AllocatorConfig& config_;
    std::function<AccountingInput(double)> at_;
    std::function<bool(double)> valid_;
    std::vector<std::pair<double, Judged>> probes_;
};

// The largest x in [1, top] that fits with x + 1 not fitting (0: not even 1), from `start` outwards:
// steps of 1, 2, 4, … up while it fits (down while it does not) until the answer is bracketed, then
// bisection. The answer on allocated is the start: the two verdicts differ by the allocator's segments and
// rounding, a few samples or tokens where the step is large, so a few replays find it.
double largestFitting(Probes& probes, double start, double top) {
    double lo = 0, hi = top + 1; // lo fits (or is 0); hi does not fit (or is past the search)
    const double first = std::clamp(start, 1.0, top);
    if (probes.fits(first)) {
        lo = first;
        for (double step = 1; lo < top; step *= 2) {
            const double x = std::min(lo + step, top);
            if (!probes.fits(x)) {
                hi = x;
                break;
            }
            lo = x;
        }
    } else {
        hi = first;
        for (double step = 1; hi > 1; step *= 2) {
            const double x = std::max(hi - step, 1.0);
            if (probes.fits(x)) {
                lo = x;
                break;
            }
            hi = x;
        }
    }
    while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        (probes.fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

std::optional<Quantity> maxBatchOnReserved(const AccountingInput& in, const GpuSpec& gpu,
                                           const AccountingResult& r, const AllocatorConfig& config) {
    if (!r.maxBatch)
        return std::nullopt;
    Probes probes(
        gpu, config,
        [&in](double batch) {
            AccountingInput c = in;
            c.batch = batch;
            return c;
        },
        [](double) { return true; });
    const double capacity = r.usableBytes.value;
    const double best = largestFitting(probes, r.maxBatch->value, kLargestBatch);
    if (best < 1)
        return Quantity{0, "even batch 1 needs " + bytes(probes(1).requiredBytes) +
                               " on reserved (the simulated reserved peak + overheads) > " + bytes(capacity) +
                               " usable"};
    std::string formula = "largest batch whose step fits on reserved: at " + n(best) +
                          " the reserved peak + overheads is " + bytes(probes(best).requiredBytes) + " ≤ " +
                          bytes(capacity) + " usable";
    if (best < kLargestBatch)
        formula += "; at " + n(best + 1) + " it is " + bytes(probes(best + 1).requiredBytes);
    return Quantity{best, formula};
}

std::optional<Quantity> maxSequenceOnReserved(const AccountingInput& in, const GpuSpec& gpu,
                                              const AccountingResult& r, const AllocatorConfig& config) {
    if (!r.maxSequence)
        return std::nullopt;
    // maxSequence()'s steps and caps: multiples of cp, the table's length with learned positions, 2^24
    const double step = in.parallel.cp;
    const bool learned = in.model.position == PositionKind::learned;
    const double cap = learned ? std::min(in.model.seq, kMaxSequenceSearched) : kMaxSequenceSearched;
    const double top = std::floor(cap / step);
    const double onAllocated = r.maxSequence->value / step;
    const auto at = [&in, step](double units) {
        AccountingInput c = in;
        c.model.seq = units * step;
        return c;
    };
    // An S validate() refuses counts as not fitting, as in maxSequence(); those up to the answer on
    // allocated were accepted there.
    Probes probes(gpu, config, at, [&](double units) {
        return units <= onAllocated || checkFiniteAnswers(at(units), gpu).ok();
    });
    const double capacity = r.usableBytes.value;
    const double best = largestFitting(probes, onAllocated, top);
    if (best < 1)
        return Quantity{0, "even S = " + formatExact(step) + " needs " + bytes(probes(1).requiredBytes) +
                               " on reserved > " + bytes(capacity) + " usable"};
    std::string formula = "largest sequence whose step fits on reserved at batch " + n(in.batch) +
                          ": at S = " + formatExact(best * step) + " the reserved peak + overheads is " +
                          bytes(probes(best).requiredBytes) + " ≤ " + bytes(capacity) + " usable";
    if (best < top)
        formula +=
            "; at " + formatExact((best + 1) * step) + " it is " + bytes(probes(best + 1).requiredBytes);
    else
        formula += "; the search stops at " + formatExact(top * step) + " tokens";
    return Quantity{best * step, formula};
}

} // namespace

bool fitsAsJudged(const AccountingInput& input, const GpuSpec& gpu, const AllocatorConfig& config) {
    return judge(input, gpu, config).fits;
}

FitSearches searchFits(const AccountingInput& in, const GpuSpec& gpu, const AccountingResult& r,
                       const FitVerdict& verdict, const AllocatorConfig& config) {
    FitSearches s;
    s.basis = verdict.basis;
    if (verdict.basis != FitBasis::reserved) {
        s.maxBatch = r.maxBatch;
        s.maxSequence = r.maxSequence;
        s.fitAdvice = r.fitAdvice;
        s.notOnReserved = verdict.notOnReserved;
        return s;
    }
    const WorkCounts before = workCounts();
    s.maxBatch = maxBatchOnReserved(in, gpu, r, config);
    s.maxSequence = maxSequenceOnReserved(in, gpu, r, config);
    const bool batchOneFits = s.maxBatch ? s.maxBatch->value >= 1 : verdict.fits;
    s.fitAdvice = fitAdvice(in, gpu, r, batchOneFits, [&config](const AccountingInput& c, const GpuSpec& g) {
        return fitsAsJudged(c, g, config);
    });
    s.probes = workCounts().fastPeaks - before.fastPeaks;
    s.replays = workCounts().stepReplays - before.stepReplays;
    return s;
}

} // namespace napkin
