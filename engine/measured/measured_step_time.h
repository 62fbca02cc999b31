// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A measured run's time beside the predicted step time: the run's measured step (its last ProfilerStep#N
// range) and, inside it, the seconds of each phase its ranges name ("forward", "backward", "optimizer step",
// "zero_grad"), against the step-time ledger's seconds of the same phase (step_time.h). Durations are the
// trace's own ("dur", µs), never estimated: a phase the run names no range for stays unset, as does a phase
// the prediction has no row in. A prediction for another kind of device than the run's (a GPU's published
// figures against a run on the CPU) is said to be so, in words, beside the figures.
#include "engine/hardware/gpu_catalog.h"
#include "engine/measured/measured_timeline.h"
#include "engine/steptime/step_time.h"
#include "engine/steptime/step_time_summary.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// The phases a run's ranges name, in step order: forward, backward, optimizer step, zero_grad.
inline constexpr std::size_t kMeasuredTimePhases = 4;

/// The measured step's seconds: the last range named "ProfilerStep#N" and, per phase, the union of the
/// ranges inside it whose name maps to that phase (phaseOfRangeName), so that nested ranges
/// ("optimizer step" around "Optimizer.step#AdamW.step") count once.
struct MeasuredStepSeconds {
    std::string stepRange;             ///< "ProfilerStep#2"; empty: no step range
    std::optional<double> stepSeconds; ///< the step range's dur; unset without one
    std::array<std::optional<double>, kMeasuredTimePhases> phaseSeconds;   ///< unset: no range of that phase
    std::array<std::vector<std::string>, kMeasuredTimePhases> phaseRanges; ///< the distinct names summed
    std::string whyNot; ///< when stepSeconds is unset: why, in one line
};

/// The step's and its phases' durations from `run.ranges` (see MeasuredStepSeconds).
MeasuredStepSeconds measuredStepSeconds(const MeasuredRun& run);

/// One phase (or the whole step) predicted against measured.
struct PhaseTimeComparison {
    std::string phase; ///< "forward", "backward", "optimizer step", "zero_grad", or "step"
    /// Σ the ledger rows of this phase (backward: with the recompute, which runs inside it); unset where the
    /// step time is not predicted or has no row in this phase (zero_grad is not modelled).
    std::optional<double> predictedSeconds;
    std::optional<double> measuredSeconds; ///< unset: the run names no range for it
    std::optional<double> ratio;           ///< predicted / measured, where both are set and measured > 0
    std::array<double, kStepTimeKinds> predictedByKindSeconds{}; ///< the prediction split by StepTimeKind
    std::vector<StepTimeRow> largestRows;    ///< its three largest ledger rows, most first (copies)
    std::vector<std::string> measuredRanges; ///< the run's range names measured for it
};

struct MeasuredTimeComparison {
    bool predicted = false; ///< the step time is predicted (else whyNotPredicted says why)
    std::string whyNotPredicted;
    std::string basis;          ///< StepTime::basis: where the predicted rates came from
    std::string predictedFor;   ///< the catalog id the step was predicted for ("H100-SXM", "this-cpu")
    std::string whyNotMeasured; ///< MeasuredStepSeconds::whyNot
    std::string stepRange;      ///< the measured step's range name, or empty
    /// False where the prediction is for another kind of device than the run's; `comparability` then says
    /// so in one sentence, and the ratios are still given (they are the arithmetic, not an agreement).
    bool comparable = true;
    std::string comparability;
    std::array<PhaseTimeComparison, kMeasuredTimePhases> phases;
    PhaseTimeComparison step;
    /// The ledger's communication and pipeline-bubble rows: in the predicted step, in none of its phases.
    double predictedOutsidePhasesSeconds = 0;
    /// The measured step less its measured phases (the loop between the ranges: Python, the profiler's own
    /// bookkeeping); unset unless the step and every phase are measured.
    std::optional<double> measuredOutsidePhasesSeconds;
};

/// The catalog id that napkin-cli calibrate and scripts/calibrate_torch.py give this machine's CPU: a
/// prediction for it is one for a run on the CPU.
inline constexpr std::string_view kThisCpuDeviceId = "this-cpu";

/// "" where a step predicted for `gpu` is a prediction for a run on `runDevice`; else one sentence saying
/// that it is not and how to make one that is (a CPU run against a GPU's figures, a GPU run against this
/// CPU's).
std::string timeComparability(const GpuSpec& gpu, const MeasuredDevice& runDevice);

/// The step time a run's time is compared with when the user names no profile: costed from the profile the
/// run carries (MeasuredRun::hardwareProfile: what measure-run.py was given) where it reads and was measured
/// on `gpu` (its basis then says it is the run's), else `published` (the page's and account's step time).
StepTime runStepTime(const AccountingInput& input, const AccountingResult& result, const GpuSpec& gpu,
                     const MeasuredRun& run, const StepTime& published, const StepTimeOptions& options = {});

/// `predicted` (the step time for `gpu`) beside `run`'s measured step on `runDevice`.
MeasuredTimeComparison compareTimeWithMeasured(const StepTime& predicted, const GpuSpec& gpu,
                                               const MeasuredRun& run, const MeasuredDevice& runDevice);

} // namespace napkin
