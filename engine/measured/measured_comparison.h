// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The prediction beside a measured run: the predicted step's peak against the measured allocated (and
// reserved) peak, the difference attributed to named lines where it can be — what the run's helper says
// it held outside the prediction (the batch, buffers), and the overhead ledger's lines — and "unexplained"
// for the rest; and each phase of the step (forward, backward, optimizer step, zero_grad) side by side
// where the trace names its ranges.
#include "engine/accounting/memory_timeline.h"
#include "engine/measured/measured_timeline.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace napkin {

/// Where an overhead shows in a measured run: inside torch.cuda.memory_allocated() (library workspaces,
/// the allocator's rounding of each block), between allocated and reserved (the allocator's cache,
/// fragmentation), or outside the allocator altogether (the CUDA context: nvidia-smi only).
enum class OverheadScope { allocated, reserved, device };

/// One line of the overhead ledger as a comparison takes it: the hook where that ledger is wired in.
struct MeasuredOverhead {
    std::string name; ///< "cuBLAS workspace"
    double bytes = 0; ///< per GPU
    OverheadScope scope = OverheadScope::allocated;
    std::string source; ///< its formula or citation
};

/// A named part of the difference between measured and predicted.
struct AttributedBytes {
    std::string name;
    double bytes = 0;
    std::string source; ///< "named by the run (scripts/measure-run.py)", or the overhead line's source
};

/// One phase of the step: napkin's largest event in it against the largest measured sample in the ranges
/// the run named for it ("forward", "Optimizer.step#AdamW.step", ...).
struct PhaseComparison {
    StepPhase phase = StepPhase::forward;
    std::string name; ///< "forward", "backward", "optimizer step", "zero_grad"
    double predictedPeakBytes = 0;
    std::string predictedPeakEvent;          ///< "backward layer 3"
    std::optional<double> measuredPeakBytes; ///< unset: the run named no range for this phase
    std::vector<std::string> measuredRanges; ///< the run's range names that map to this phase
};

struct MeasuredComparison {
    MeasuredDevice device;
    double predictedPeakBytes = 0;
    std::string predictedPeakEvent;
    double measuredPeakBytes = 0; ///< allocated
    std::string measuredPeakPhase;
    double differenceBytes = 0;              ///< measured − predicted (allocated)
    std::vector<AttributedBytes> attributed; ///< parts of the difference, each named
    double unexplainedBytes = 0;             ///< difference − Σ attributed
    bool hasReserved = false;
    double measuredReservedPeakBytes = 0;
    /// prediction + every allocated and reserved overhead line (+ what the run named)
    double predictedReservedBytes = 0;
    double unexplainedReservedBytes = 0; ///< measured reserved peak − predictedReservedBytes
    std::vector<PhaseComparison> phases; ///< forward, backward, optimizer step, zero_grad
    std::size_t measuredSamples = 0;
    /// What the run held when its step began (allocated just before the first allocation in a range named
    /// "forward"), less the bytes the run names; unset where it names no forward range.
    std::optional<double> measuredStartBytes;
    /// The prediction's persistent bytes: its timeline's start (weights, master copy, optimizer state).
    double predictedStartBytes = 0;
    /// measuredStartBytes − predictedStartBytes where they differ by more than kSetupToleranceFraction of
    /// the prediction (and 4 KiB): what persists across steps depends on the setup alone (model,
    /// precision, optimizer, ZeRO), so the run was probably made with another setup than the prediction's,
    /// and the peak's difference is mostly that rather than something unexplained. Unset when they agree.
    std::optional<double> setupDifferenceBytes;
};

/// How far the step's starting memory may lie from the prediction's persistent bytes before the setups are
/// said to differ: 5 % (a CUDA allocator rounds each tensor up to 512 B; a library workspace made in the
/// warm-up step stays).
inline constexpr double kSetupToleranceFraction = 0.05;

/// The napkin phase a run's range name stands for ("forward", "## backward ##", "optimizer step",
/// "Optimizer.step#AdamW.step", "Optimizer.zero_grad#AdamW.zero_grad"); nullopt for any other name.
std::optional<StepPhase> phaseOfRangeName(const std::string& name);

/// `timeline` (one device of `run`) beside the predicted step `predicted`, with the overhead ledger's
/// `overheads` (empty until that ledger is wired: its whole share then shows as unexplained).
MeasuredComparison compareWithMeasured(const MemoryTimeline& predicted, const MeasuredRun& run,
                                       const MeasuredTimeline& timeline,
                                       std::span<const MeasuredOverhead> overheads = {});

/// A measured sample placed on the predicted timeline's axis (event indices): the samples of each phase
/// spread evenly over that phase's events, so the measured curve lies over the predicted one phase by
/// phase. Samples outside every mapped phase are left out.
struct AlignedSample {
    double x = 0;
    double allocatedBytes = 0;
    double reservedBytes = -1;
};
std::vector<AlignedSample> alignToPredicted(const MemoryTimeline& predicted,
                                            const MeasuredTimeline& timeline);

} // namespace napkin
