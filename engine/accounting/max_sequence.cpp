// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/max_sequence.h"

#include "engine/accounting/finite_answers.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

std::string tokens(double v) {
    return formatExact(v);
}

// Every digit: one token more adds about a megabyte to a peak of tens of gigabytes, which three
// significant digits would show as the same number.
std::string bytes(double v) {
    return (v == std::floor(v) ? formatExact(v) : formatShortest(v)) + " B";
}

struct Probe {
    double units; ///< S / step
    double peak;
};

// The step's peak at S = units·step, each S evaluated once by peakBytes (the peak `fits` judges).
class SequencePeaks {
public:
    SequencePeaks(const AccountingInput& in, const GpuSpec& gpu, double step, double capacity,
                  bool finiteEverywhere)
        : in_(in)
        , gpu_(gpu)
        , step_(step)
        , capacity_(capacity)
        , finiteEverywhere_(finiteEverywhere) {}

    void seed(double units, double peak) { probes_.push_back({units, peak}); }

    double peakAt(double units) {
        for (const Probe& p : probes_)
            if (p.units == units)
                return p.peak;
        AccountingInput c = in_;
        c.model.seq = units * step_;
        const double peak = requiredBytes(c, gpu_); // the peak + overheads `fits` judges
        probes_.push_back({units, peak});
        return peak;
    }

    // An S validate() refuses (the run would never end: attention's FLOPs per token grow with S) counts
    // as not fitting; checked once at the cap, and per S only if the cap itself is refused.
    bool fitsAt(double units) {
        if (peakAt(units) > capacity_)
            return false;
        if (finiteEverywhere_)
            return true;
        AccountingInput c = in_;
        c.model.seq = units * step_;
        return checkFiniteAnswers(c, gpu_).ok();
    }

    const std::vector<Probe>& probes() const { return probes_; }

private:
    const AccountingInput& in_;
    const GpuSpec& gpu_;
    double step_, capacity_;
    bool finiteEverywhere_;
    std::vector<Probe> probes_;
};

// Where the peak crosses `capacity`, from the last three probes: each event's bytes are a quadratic in S
// (s² attention scores and masks, s-long activations, logits and position tables), so while one event
// holds the peak the fit is exact. NaN when the probes give no crossing.
double interpolatedCrossing(const std::vector<Probe>& probes, double capacity) {
    const std::size_t count = std::min<std::size_t>(probes.size(), 3);
    if (count < 2)
        return NAN;
    const Probe* p = probes.data() + probes.size() - count;
    // Newton's form around p[0], x = units − p[0].units: peak ≈ p0 + b·x + a·x².
    const double d01 = (p[1].peak - p[0].peak) / (p[1].units - p[0].units);
    double a = 0;
    if (count == 3) {
        const double d12 = (p[2].peak - p[1].peak) / (p[2].units - p[1].units);
        a = (d12 - d01) / (p[2].units - p[0].units);
    }
    const double b = d01 - a * (p[1].units - p[0].units);
    const double q = capacity - p[0].peak;
    // a·x² + b·x − q = 0 on the rising branch, in the form that does not cancel when a is small.
    const double disc = b * b + 4 * a * q;
    if (!(disc >= 0) || !(b + std::sqrt(disc) > 0))
        return NAN;
    return p[0].units + 2 * q / (b + std::sqrt(disc));
}

// The largest units in [0, top] that fit (fitsAt(0) taken as true): interpolation on the peak, kept
// inside the bracket, so that once it lands on the answer the next probe (one more) confirms it; bisection
// (or doubling, while no upper bound is known) whenever interpolation gives nothing or twice fails to
// halve the bracket. The peak rises with S, so the bracket always holds the answer. The linear peaks of flash
// attention and recompute take three probes beyond the input's own S, eager attention's quadratic four.
double largestFitting(SequencePeaks& peaks, double top, double capacity) {
    double lo = 0, hi = top + 1; // lo fits (or is 0); hi does not fit (or is past the search)
    const auto probe = [&](double units) { (peaks.fitsAt(units) ? lo : hi) = units; };
    if (!peaks.probes().empty()) // the input's own S, already evaluated
        probe(peaks.probes().front().units);
    if (lo == 0 && hi > 1)
        probe(1);
    int slow = 0; // interpolations in a row that did not halve the bracket
    while (hi - lo > 1) {
        const double width = hi - lo;
        const double crossing = slow < 2 ? std::floor(interpolatedCrossing(peaks.probes(), capacity)) : NAN;
        if (std::isfinite(crossing))
            probe(std::clamp(crossing, lo + 1, hi - 1));
        else
            probe(hi > top ? std::min(2 * lo, top) : std::floor((lo + hi) / 2));
        slow = std::isfinite(crossing) && hi - lo > width / 2 ? slow + 1 : 0;
    }
    return lo;
}

} // namespace

std::optional<Quantity> maxSequence(const AccountingInput& in, const GpuSpec& gpu,
                                    const AccountingResult& r) {
    if (!r.activationsModelled || in.model.kind != ModelKind::transformer)
        return std::nullopt;
    const double step = in.parallel.cp; // validate(): cp divides seq
    const bool learned = in.model.position == PositionKind::learned;
    const double cap = learned ? std::min(in.model.seq, kMaxSequenceSearched) : kMaxSequenceSearched;
    const double top = std::floor(cap / step);
    const double capacity = r.usableBytes.value;

    AccountingInput atCap = in;
    atCap.model.seq = top * step;
    SequencePeaks peaks(in, gpu, step, capacity, checkFiniteAnswers(atCap, gpu).ok());
    const double own = in.model.seq / step;
    if (own <= top)
        peaks.seed(own, r.predictedBytes.value);
    const double best = largestFitting(peaks, top, capacity) * step;

    const std::string stepText = step > 1 ? " (a multiple of cp = " + n(step) + ", as validate() asks)" : "";
    if (best < step)
        return Quantity{0, "even S = " + tokens(step) + " peaks at " + bytes(peaks.peakAt(1)) + " > " +
                               bytes(capacity)};
    std::string formula =
        "largest sequence whose step peak fits at batch " + n(in.batch) + stepText +
        ": at S = " + tokens(best) +
        (in.overheads.basis == MemoryBasis::datasheet ? " the peak is " : " the peak + overheads is ") +
        bytes(peaks.peakAt(best / step)) + " ≤ " + bytes(capacity);
    if (best / step < top)
        formula += "; at " + tokens(best + step) + " it is " + bytes(peaks.peakAt(best / step + 1));
    else if (learned && cap == in.model.seq)
        formula += "; learned positions stop at the table's length, seq = " + tokens(cap);
    else
        formula += "; the search stops at " + tokens(kMaxSequenceSearched) + " tokens";
    return Quantity{best, formula};
}

} // namespace napkin
