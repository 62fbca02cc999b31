// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One training step's time, predicted over the op list (step_ops.h) from a hardware profile
// (hardware_profile.h): each op takes max(FLOPs / the achievable FLOP/s at its shape and dtype, bytes /
// the achievable bandwidth), plus the per-op overhead for each op it dispatches; the communication
// ledger's collectives on their links, with what the framework overlaps; the pipeline bubble. Computed on
// request (account --json, the text report), never inside account(): the searches and the page's tick
// stay as fast as before.
#include "engine/accounting/accounting.h"
#include "engine/steptime/hardware_profile.h"
#include "engine/steptime/step_ops.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

enum class StepTimeKind { compute, memory, communication, bubble, overhead };
std::string_view stepTimeKindName(StepTimeKind kind);

/// One line of the time ledger: an op (or collective) over all its occurrences in the step.
struct StepTimeRow {
    std::string name;
    StepTimePhase phase = StepTimePhase::forward;
    StepTimeKind kind = StepTimeKind::compute; ///< what bounds it: compute or memory for an op
    double seconds = 0;                        ///< on the step's critical path (exposed communication only)
    double flops = 0;                          ///< executed over the step
    double bytes = 0;                          ///< read + written (or sent) over the step
    std::string formula;                       ///< with the numbers substituted
    /// A GEMM row: its forward shape [m×k]·[k×n] (batch matrices of it), what scripts/calibrate_torch.py
    /// reads to time the step's own shapes; all 0 for any other row.
    double m = 0, n = 0, k = 0, batch = 0;
};

struct StepTimeOptions {
    /// Data-parallel collectives (DDP's all-reduce, ZeRO/FSDP's reduce-scatters and gathers) overlap with
    /// the backward (ZeRO-3: with forward and backward); false puts them all on the critical path.
    bool overlapDataParallel = true;
};

struct StepTime {
    bool predicted = false;
    std::string whyNot; ///< when not predicted: which input or figure is missing, in one line
    double seconds = 0; ///< one optimizer step over the whole global batch (every GPU at once)
    double mfu = 0;     ///< model FLOPs (forward + backward) / (seconds × GPUs × dense peak)
    double hfu = 0;     ///< as mfu with the recompute counted
    double tokensPerSecond = 0;
    std::string basis; ///< where the rates came from: the profile's source
    std::string mfuFormula;
    std::vector<StepTimeRow> ledger;
    std::vector<std::string> notModelled; ///< what the prediction leaves out
};

/// The step time of `input` on `gpu` (`result` = account(input, gpu)) from `profile`. Not predicted (with
/// the reason) when the setup's ops are not modelled, the profile lacks the compute dtype's GEMMs or a
/// bandwidth, or an exposed collective has no link figure.
StepTime predictStepTime(const AccountingInput& input, const AccountingResult& result,
                         const HardwareProfile& profile, const StepTimeOptions& options = {});

/// One op of `list` as its row, every occurrence together and no per-op overhead: a GEMM takes max(FLOPs /
/// the profile's rate at its shape, orientation and the list's dtype, bytes / the bandwidth of `streamed`
/// tensors), a memory-bound op its bytes / that bandwidth, the optimizer's update the rate the profile
/// measured for it when it has one. What predictStepTime costs each op with, and the Cruncher's step
/// (cruncher_step_time.h).
StepTimeRow costStepOp(const StepOp& op, const HardwareProfile& profile, const StepOpList& list,
                       StorageType streamed);

/// The per-op overhead of one phase: `launches` ops dispatched × the profile's per-op overhead; none when
/// either is 0.
std::optional<StepTimeRow> perOpOverheadRow(StepTimePhase phase, double launches,
                                            const HardwareProfile& profile);

/// The profile a step is timed from when the user gives none: the published one for `gpu`
/// (published_profiles.h), or unset with the reason in `whyNot`.
std::optional<HardwareProfile> defaultProfile(const GpuSpec& gpu, std::string& whyNot);

/// The step time from `gpu`'s published profile (defaultProfile), or not predicted with its reason: what
/// `account --json` carries when no --hardware-profile is given, and what the app's export carries.
StepTime publishedStepTime(const AccountingInput& input, const AccountingResult& result, const GpuSpec& gpu,
                           const StepTimeOptions& options = {});

/// The step time a front end shows for `gpu`: from `profile` when one is given and was measured on `gpu`,
/// else from `gpu`'s published profile (publishedStepTime). napkin-cli refuses a profile of another device
/// before it gets here; the app's chosen profile serves only the device it was measured on.
StepTime stepTimeFromProfile(const AccountingInput& input, const AccountingResult& result, const GpuSpec& gpu,
                             const HardwareProfile* profile, const StepTimeOptions& options = {});

/// A profile measured on another device than the one chosen: "profile is for X, the account is for Y",
/// or empty when `profile.device` is `gpu.id` (letter case aside).
std::string profileDeviceMismatch(const HardwareProfile& profile, const GpuSpec& gpu);

} // namespace napkin
