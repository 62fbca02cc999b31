// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Serving time predicted by the training step's model (step_time.h): the prefill of B sequences of P tokens
// and one decode step of B sequences with S tokens cached, over inference_ops.h's op list, each op costed as
// costStepOp costs a training op: max(FLOPs / the profile's achievable FLOP/s at its shape and dtype, bytes /
// the profile's bandwidth), plus the profile's per-op overhead per op dispatched; tensor parallelism's
// all-reduces on the GPU link. Beside inference_accounting.h's roofline (datasheet peak and bandwidth, the
// whole pass as one op), which stays a lower bound; this is the prediction, as good as its profile.
//
// Small-M GEMMs (decode's B rows): a GEMM takes the profile's rate at its own shape (gemmFlopsPerSecond:
// measured there, or interpolated in m·n·k, and held at the smallest measured shape's rate below it). A
// profile that measured no shape that small (the published ones: one MAMF point) overstates such a GEMM's
// FLOP/s; its time is then its bytes (the weights it reads), which bound it anyway at small B. The ledger's
// not_modelled says how many GEMMs fell below the profile's smallest shape.
#include "engine/inference/inference_accounting.h"
#include "engine/steptime/inference_ops.h"
#include "engine/steptime/step_time.h"

#include <string>
#include <vector>

namespace napkin {

/// One pass (a prefill, or one decode step), predicted.
struct InferenceTime {
    bool predicted = false;
    std::string whyNot;              ///< when not predicted: which input or figure is missing, in one line
    double seconds = 0;              ///< the pass over the whole batch (every GPU at once)
    double tokensPerSecond = 0;      ///< prefill: B·P / seconds; decode: B / seconds
    std::string tokensFormula;       ///< with the numbers substituted
    std::string basis;               ///< the profile's source
    std::vector<StepTimeRow> ledger; ///< ops (phase forward), per-op overhead, tensor-parallel all-reduces
    std::vector<std::string> notModelled;
};

struct InferenceTimes {
    InferenceTime prefill, decode;
};

/// Prefill and one decode step of `input` (valid: validateInference) on `gpu` from `profile`. Not predicted
/// (with the reason) for a model the op list does not model, a profile without a GEMM rate in the weights'
/// arithmetic or without a bandwidth, or all-reduces with no link figure.
InferenceTimes predictInferenceTime(const InferenceInput& input, const GpuSpec& gpu,
                                    const HardwareProfile& profile);

/// What the front ends show: from `profile` when one is given and was measured on `gpu`, else from `gpu`'s
/// published profile (defaultProfile), else not predicted with the reason (napkin-cli refuses a profile of
/// another device before it gets here, as for the training step).
InferenceTimes inferenceTimeFromProfile(const InferenceInput& input, const GpuSpec& gpu,
                                        const HardwareProfile* profile);

} // namespace napkin
