// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/measured/measured_step_time.h"

#include "engine/measured/measured_comparison.h"
#include "engine/steptime/step_time_summary.h"

#include <algorithm>
#include <utility>

namespace napkin {
namespace {

constexpr std::array<const char*, kMeasuredTimePhases> kPhaseLabels = {"forward", "backward",
                                                                       "optimizer step", "zero_grad"};
constexpr std::size_t kLargestRows = 3;
constexpr double kSecondsPerMicrosecond = 1e-6;

// The index into the phase arrays of a range's phase, or nullopt for a range that names none.
std::optional<std::size_t> phaseIndex(const std::string& rangeName) {
    const std::optional<StepPhase> phase = phaseOfRangeName(rangeName);
    if (!phase)
        return std::nullopt;
    switch (*phase) {
    case StepPhase::forward:
        return 0;
    case StepPhase::backward:
    case StepPhase::recompute:
        return 1;
    case StepPhase::optimizer:
        return 2;
    case StepPhase::zeroGrad:
        return 3;
    case StepPhase::start:
        break;
    }
    return std::nullopt;
}

// The measured phase a ledger row's time falls in: the recompute runs inside backward; communication and
// the pipeline bubble fall in no range a run names.
std::optional<std::size_t> phaseIndex(StepTimePhase phase) {
    switch (phase) {
    case StepTimePhase::forward:
        return 0;
    case StepTimePhase::backward:
    case StepTimePhase::recompute:
        return 1;
    case StepTimePhase::optimizer:
        return 2;
    case StepTimePhase::communication:
    case StepTimePhase::pipeline:
        break;
    }
    return std::nullopt;
}

bool isStepRange(const std::string& name) {
    return name.rfind("ProfilerStep#", 0) == 0;
}

// The length of the union of `intervals` (start, end): a range nested in another of the same phase, or two
// threads' overlapping ranges, count once.
double unionLength(std::vector<std::pair<double, double>> intervals) {
    std::sort(intervals.begin(), intervals.end());
    double total = 0, from = 0, to = 0;
    bool open = false;
    for (const auto& [start, end] : intervals) {
        if (open && start <= to) {
            to = std::max(to, end);
            continue;
        }
        if (open)
            total += to - from;
        from = start;
        to = end;
        open = true;
    }
    return open ? total + (to - from) : total;
}

void setRatio(PhaseTimeComparison& row) {
    if (row.predictedSeconds && row.measuredSeconds && *row.measuredSeconds > 0)
        row.ratio = *row.predictedSeconds / *row.measuredSeconds;
}

std::vector<StepTimeRow> largestRowsOf(const StepTime& t, const std::optional<std::size_t>& phase) {
    std::vector<StepTimeRow> rows;
    for (const StepTimeRow* row : largestStepRows(t, t.ledger.size()))
        if ((!phase || phaseIndex(row->phase) == phase) && rows.size() < kLargestRows)
            rows.push_back(*row);
    return rows;
}

} // namespace

MeasuredStepSeconds measuredStepSeconds(const MeasuredRun& run) {
    MeasuredStepSeconds m;
    if (run.ranges.empty()) {
        m.whyNot = "the run has no named ranges with durations (" + run.format + ")";
        return m;
    }
    // The measured step is the last one (scripts/measure-run.py's warm-up steps come first, in ranges of
    // their own; a torch.profiler schedule's active steps are each a ProfilerStep#N).
    const MeasuredRange* step = nullptr;
    for (const MeasuredRange& r : run.ranges)
        if (isStepRange(r.name) && (!step || r.startUs >= step->startUs))
            step = &r;
    if (!step) {
        m.whyNot = "the run names no ProfilerStep#N range, so which of its ranges make one step is unknown";
        return m;
    }
    m.stepRange = step->name;
    m.stepSeconds = (step->endUs - step->startUs) * kSecondsPerMicrosecond;
    std::array<std::vector<std::pair<double, double>>, kMeasuredTimePhases> intervals;
    for (const MeasuredRange& r : run.ranges) {
        if (&r == step || r.startUs < step->startUs || r.endUs > step->endUs)
            continue;
        const std::optional<std::size_t> phase = phaseIndex(r.name);
        if (!phase)
            continue;
        intervals.at(*phase).emplace_back(r.startUs, r.endUs);
        std::vector<std::string>& names = m.phaseRanges.at(*phase);
        if (std::find(names.begin(), names.end(), r.name) == names.end())
            names.push_back(r.name);
    }
    for (std::size_t p = 0; p < kMeasuredTimePhases; ++p)
        if (!intervals.at(p).empty())
            m.phaseSeconds.at(p) = unionLength(intervals.at(p)) * kSecondsPerMicrosecond;
    return m;
}

std::string timeComparability(const GpuSpec& gpu, const MeasuredDevice& runDevice) {
    const bool predictedForCpu = gpu.id == kThisCpuDeviceId;
    if (runDevice.type == MeasuredDeviceType::cpu && !predictedForCpu)
        return "the prediction is for " + gpu.id +
               ", the run is on the CPU: its times are not comparable. For a "
               "CPU run, predict for this CPU: --gpu-catalog CATALOG --gpu this-cpu --hardware-profile "
               "PROFILE "
               "(scripts/calibrate_torch.py writes both from torch's own kernels)";
    if (runDevice.type != MeasuredDeviceType::cpu && predictedForCpu)
        return "the prediction is for this CPU, the run is on " + measuredDeviceName(runDevice) +
               ": its times are not comparable. Predict for the run's GPU (--gpu)";
    return {};
}

StepTime runStepTime(const AccountingInput& input, const AccountingResult& result, const GpuSpec& gpu,
                     const MeasuredRun& run, const StepTime& published, const StepTimeOptions& options) {
    if (run.hardwareProfile.empty())
        return published;
    const HardwareProfileRead read = hardwareProfileFromJson(run.hardwareProfile);
    if (!read.profile || !profileDeviceMismatch(*read.profile, gpu).empty())
        return published; // a damaged profile, or one for another device than the page's: not this setup's
    StepTime t = predictStepTime(input, result, *read.profile, options);
    t.basis += " (the profile the run carries: napkin_hardware_profile)";
    return t;
}

MeasuredTimeComparison compareTimeWithMeasured(const StepTime& predicted, const GpuSpec& gpu,
                                               const MeasuredRun& run, const MeasuredDevice& runDevice) {
    MeasuredTimeComparison c;
    c.predicted = predicted.predicted;
    c.whyNotPredicted = predicted.whyNot;
    c.basis = predicted.basis;
    c.predictedFor = gpu.id;
    c.comparability = timeComparability(gpu, runDevice);
    c.comparable = c.comparability.empty();
    const MeasuredStepSeconds measured = measuredStepSeconds(run);
    c.whyNotMeasured = measured.whyNot;
    c.stepRange = measured.stepRange;

    std::array<bool, kMeasuredTimePhases> hasRows{};
    std::array<double, kMeasuredTimePhases> seconds{};
    if (predicted.predicted)
        for (const StepTimeRow& row : predicted.ledger) {
            const std::optional<std::size_t> p = phaseIndex(row.phase);
            if (!p) {
                c.predictedOutsidePhasesSeconds += row.seconds;
                continue;
            }
            hasRows.at(*p) = true;
            seconds.at(*p) += row.seconds;
            c.phases.at(*p).predictedByKindSeconds.at(static_cast<std::size_t>(row.kind)) += row.seconds;
        }
    double measuredPhases = 0;
    bool everyPhaseMeasured = true;
    for (std::size_t p = 0; p < kMeasuredTimePhases; ++p) {
        PhaseTimeComparison& row = c.phases.at(p);
        row.phase = kPhaseLabels.at(p);
        if (hasRows.at(p)) {
            row.predictedSeconds = seconds.at(p);
            row.largestRows = largestRowsOf(predicted, p);
        }
        row.measuredSeconds = measured.phaseSeconds.at(p);
        row.measuredRanges = measured.phaseRanges.at(p);
        setRatio(row);
        everyPhaseMeasured = everyPhaseMeasured && row.measuredSeconds.has_value();
        measuredPhases += row.measuredSeconds.value_or(0);
    }
    c.step.phase = "step";
    if (predicted.predicted) {
        c.step.predictedSeconds = predicted.seconds;
        c.step.predictedByKindSeconds = stepSecondsByKind(predicted);
        c.step.largestRows = largestRowsOf(predicted, std::nullopt);
    }
    c.step.measuredSeconds = measured.stepSeconds;
    if (!measured.stepRange.empty())
        c.step.measuredRanges = {measured.stepRange};
    setRatio(c.step);
    if (measured.stepSeconds && everyPhaseMeasured)
        c.measuredOutsidePhasesSeconds = *measured.stepSeconds - measuredPhases;
    return c;
}

} // namespace napkin
