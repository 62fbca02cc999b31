// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One Cruncher training run, measured: the service that napkin-cli `bench train` and the Benchmarks page
// both call, so both show the same losses, step time, FLOPs and predicted-against-measured memory.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/benchmarks/benchmark_progress.h"
#include "engine/compute/benchmark_backend.h"
#include "engine/numerics/timing_summary.h"
#include "engine/steptime/step_time.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace napkin {

struct TrainingRunRequest {
    CruncherConfig config;
    long steps = 10;
    std::string resumeFrom; ///< a checkpoint to start from; empty: the seeded initial weights
    std::string saveTo;     ///< a checkpoint written after the last step; empty: none
};

/// Bytes the lecture's formula predicts for one component, and what the trainer's ledger holds.
struct BytesPredictedMeasured {
    double predicted = 0;
    double measured = 0;
};

/// The formula's components (engine/accounting) next to the accounting allocator's (MemoryLedger).
/// A component's measured bytes are the most the ledger held of it at any moment of the run (its peak
/// under its tag): a trainer that frees activations in backward and gradients at zero_grad holds none of
/// them after a step, yet held all of them at one time.
struct MemoryComparison {
    BytesPredictedMeasured parameters, gradients, masterWeights, optimizerState, activations;
    BytesPredictedMeasured total; ///< the five above: the napkin sum, whose parts never coexist in full
    /// Held by the trainer but not in the formula, at their peaks: the input batch, targets and target
    /// function (inputs); the head output, dL/dy and the B·D backward temporaries (workspace), and on
    /// oneDNN its scratchpad (packing buffers) and, in mixed precision, dL/dy in bf16 and the
    /// gradient-widening chunk.
    double inputsBytes = 0, workspaceBytes = 0;
    double scratchBytes = 0;   ///< the implementation's own buffers (oneDNN's scratchpad): in no formula
    double allocatedBytes = 0; ///< the most the ledger held at once, every tag together
    /// What the device allocator itself reports (CUDA: cudaMemGetInfo around the allocations); unset on
    /// the CPU, which has no such figure.
    std::optional<double> allocatorReportedBytes;
    /// On a GPU: per component, the bytes asked for and the drop in cudaMemGetInfo as it was allocated,
    /// then the first step's own (CruncherTrainer::deviceAllocations); empty on the CPU.
    std::vector<DeviceAllocation> deviceAllocations;
    /// Memory over the last step run: the prediction (the first step's, where the optimizer state is
    /// made, when the last step run was step 1), and the trainer's ledger at the same events; empty
    /// for a trainer that does not record them (the CUDA trainer allocates everything up front).
    MemoryTimeline predictedTimeline;
    std::vector<TimelineEvent> measuredTimeline;
    /// The most the ledger held at once over the run, every tag but inputs (what the timeline counts).
    double peakMeasuredBytes = 0;
    /// The measured timeline has the predicted events, with the same bytes in every component.
    bool timelineAgrees() const { return measuredTimeline == predictedTimeline.events; }
};

struct TrainingRun {
    TrainingRunRequest request;
    long firstStep = 1;         ///< the number of the first step run (above 1 after a resume)
    std::vector<double> losses; ///< one per step run, from the forward pass before the update
    /// Seconds per step; the first step (page faults, thread start-up) is left out when there are others.
    TimingSummary stepTiming;
    double flopsPerStep = 0;    ///< every GEMM issued: 6·B·P − 2·B·D²
    double flopsPerStep6BP = 0; ///< the napkin rule 6·B·P, for comparison
    /// On a device that times itself (CUDA): its part of each step (CUDA events, first GEMM to the
    /// optimizer's end) and the batch's draw on the device before it, over the same steps as stepTiming.
    std::optional<TimingSummary> deviceStepTiming;
    std::optional<double> batchDrawSecondsMedian;
    /// flopsPerStep / median seconds of the device's step where there is one (mfuBasis says which), else of
    /// the whole step: the MFU of the GPU, not of the host feeding it.
    double flopsPerSecond = 0;
    std::optional<double> promisedFlopsPerSecond; ///< the device's promise for the GEMMs' dtype (fp32, bf16)
    std::optional<double> mfu;
    std::optional<double> wallMfu; ///< flopsPerStep / (median whole-step seconds × promise), host included
    std::string mfuBasis;          ///< "gpu_step_seconds_median (CUDA events)" or "step_seconds_median (...)"
    DeviceInfo device;
    MemoryComparison memory;
    /// The step predicted from a hardware profile (cruncher_step_time.h), set by the front end that ran it;
    /// not predicted, with the reason, when it chose none or none fits.
    StepTime predictedStep;
    bool cancelled = false; ///< stopped early through the progress callback; the fields cover the steps run
};

/// A run that could not start, and why: the backend cannot hold the model (out of device memory, or more
/// than this machine's memory allows, predicted before allocating), the checkpoint to resume from was
/// refused, or the checkpoint target cannot be written (checked before the first step); or a run that
/// stopped because the loss stopped being a number (the learning rate is too large): its losses would be
/// inf or NaN, and a checkpoint of its weights could not be loaded again.
class TrainingRunRefused : public std::runtime_error {
public:
    enum class Cause { model, resume, save, diverged };
    TrainingRunRefused(Cause cause, const std::string& message)
        : std::runtime_error(message)
        , m_cause(cause) {}
    Cause cause() const { return m_cause; }

private:
    Cause m_cause;
};

/// The lecture's accounting input for the same Cruncher under its precision recipe (config.precision:
/// fp32, or mixed-bf16's 2-byte weights, gradients and activations with 4-byte master weights and state).
AccountingInput cruncherAccountingInput(const CruncherConfig& config);
/// That accounting; memory does not depend on the GPU chosen.
AccountingResult predictedCruncherAccounting(const CruncherConfig& config);

/// Makes the trainer, resumes if asked, runs the steps (asking `progress` between them), saves if asked.
/// Throws TrainingRunRefused (see above; a checkpoint asked of a run with frozen layers is refused as save
/// or resume); std::invalid_argument for a configuration the backend cannot train (a precision it does
/// not run: BenchmarkBackend::unsupportedPrecisionReason; frozen layers off the CPU); std::runtime_error
/// when the checkpoint cannot be written.
TrainingRun runCruncherTraining(BenchmarkBackend& backend, const TrainingRunRequest& request,
                                const ProgressCallback& progress = {});

} // namespace napkin
