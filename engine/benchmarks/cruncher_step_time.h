// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One Cruncher training step predicted from a hardware profile, to stand beside the step `bench train` and
// the Benchmarks page measure. The op list is what the trainers run (engine/compute/cpu and cuda): the L
// layer GEMMs and the head's forward, the MSE loss, the head's two backward GEMMs, each layer's dW and (above
// the lowest trained layer) dX, and one optimizer update per parameter tensor; the batch draw where the
// measured step includes it. Each op is costed as the account's step time costs it (costStepOp): no
// constant is fitted to any measurement.
#include "engine/benchmarks/training_run.h"
#include "engine/compute/benchmark_result.h"
#include "engine/compute/cruncher_config.h"
#include "engine/steptime/step_ops.h"
#include "engine/steptime/step_time.h"

#include <optional>
#include <string>

namespace napkin {

/// The ops of one step of `config` (dtype: its GEMMs'; activations: what the loss and draw stream). With
/// `batchDrawTimed` the batch's draw leads the list, as the CPU trainers time it; the CUDA trainer's device
/// step starts after it. `whyNot` is set for a recipe no Cruncher trainer runs (pure bf16, fp16, fp8).
StepOpList cruncherStepOps(const CruncherConfig& config, bool batchDrawTimed);

/// The predicted step of `config` from `profile`: each op max(FLOPs / R(shape, dtype), bytes / BW) and the
/// profile's per-op overhead once per op dispatched, as rows of the account's ledger. Not predicted (with
/// the reason) when the profile has no GEMM rate in the recipe's dtype (tf32 included) or no bandwidth.
StepTime predictCruncherStepTime(const CruncherConfig& config, const HardwareProfile& profile,
                                 bool batchDrawTimed);

/// The id a profile of the run's device carries: "this-cpu" on the CPU (what `napkin-cli calibrate` writes),
/// the catalog id of a GPU (its driver name where the catalog lacks it).
std::string cruncherRunDeviceId(const DeviceInfo& device);

/// Why `profile` cannot time a run on `device`, naming the field: "device: the profile was measured on
/// H100-SXM, this run is on this-cpu", or "device_name: ..." for a CPU profile of another CPU; empty when
/// it fits.
std::string cruncherProfileMismatch(const HardwareProfile& profile, const DeviceInfo& device);

/// The profile a run is predicted from when none is given: a GPU's published one (defaultProfile); unset on
/// the CPU ("no profile for this CPU (napkin-cli calibrate writes one)") and for a GPU with none, the
/// reason in `whyNot`.
std::optional<HardwareProfile> defaultCruncherProfile(const DeviceInfo& device, std::string& whyNot);

/// Sets `run.predictedStep` from `chosen` (a file's profile, `origin` its path) when given: not predicted,
/// naming the field, when it was measured on another device than the run's (cruncherProfileMismatch); else
/// from defaultCruncherProfile, or not predicted with its reason. What both front ends do after a run.
void predictRunStep(TrainingRun& run, const std::optional<HardwareProfile>& chosen,
                    const std::string& origin);

/// Sets `run.predictedStep` from `profile` (the draw counted where the run's measured step includes it),
/// its basis "`origin` (the profile's source)".
void attachPredictedStep(TrainingRun& run, const HardwareProfile& profile, const std::string& origin);
/// Sets `run.predictedStep` to not predicted, with `whyNot`.
void attachUnpredictedStep(TrainingRun& run, const std::string& whyNot);

/// The measured step the prediction stands beside: the device's step median where the run has one (CUDA
/// events), else the whole step's median; seconds.
double measuredStepSeconds(const TrainingRun& run);
/// Predicted seconds ÷ measuredStepSeconds; unset when not predicted or nothing was measured.
std::optional<double> predictedOverMeasured(const TrainingRun& run);

/// "step: measured 12.3 ms, predicted 10.1 ms (×0.82) from PROFILE-SOURCE", or "step: measured 12.3 ms,
/// not predicted: REASON".
std::string predictedStepLine(const TrainingRun& run);

} // namespace napkin
