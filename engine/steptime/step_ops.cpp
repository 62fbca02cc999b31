// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/steptime/step_ops.h"

#include "engine/accounting/fine_tuning.h"
#include "engine/steptime/step_ops_builder.h"

namespace napkin {

std::string_view stepTimePhaseName(StepTimePhase phase) {
    switch (phase) {
    case StepTimePhase::forward:
        return "forward";
    case StepTimePhase::backward:
        return "backward";
    case StepTimePhase::recompute:
        return "recompute";
    case StepTimePhase::optimizer:
        return "optimizer";
    case StepTimePhase::communication:
        return "communication";
    case StepTimePhase::pipeline:
        return "pipeline";
    }
    return "forward";
}

std::string transformerNotModelled(const ModelSpec& m) {
    if (m.qkNorm != QkNorm::none)
        return "QK-norm is not in the step-time model yet";
    if (m.normPlacement != NormPlacement::pre)
        return "norm placement " + std::string(m.normPlacement == NormPlacement::post ? "post" : "other") +
               " is not in the step-time model yet (pre-norm only)";
    if (m.attentionSinks)
        return "attention sinks are not in the step-time model yet";
    if (m.mlp == MlpKind::geglu)
        return "GeGLU is not in the step-time model yet";
    return {};
}

double opListReplicaForwardFlops(const AccountingInput& in) {
    const ModelSpec& m = in.model;
    const double sequences = in.batch * in.parallel.microbatches;
    const double T = tokensPerStep(m, sequences);
    switch (m.kind) {
    case ModelKind::dense:
        return 2 * T * m.parameters;
    case ModelKind::cruncher:
        return 2 * T * (m.layers * m.dim * m.dim + m.dim);
    case ModelKind::linear2:
        return 2 * T * (m.dim * m.dim + m.dim * m.out);
    case ModelKind::transformer:
        break;
    }
    const double d = m.dModel, a = m.heads, g = kvHeadCount(m), dqk = queryKeyHeadWidth(m),
                 dv = valueHeadWidth(m), f = ffnWidth(m), L = m.layers;
    double projections = d * (a * dqk + g * dqk + g * dv) + a * dv * d;
    if (isLatentAttention(m)) { // q (through its bottleneck), the kv latent and RoPE key, kv up, output
        const double q = m.qLoraRank > 0 ? d * m.qLoraRank + m.qLoraRank * a * dqk : d * a * dqk;
        projections = q + d * (m.kvLoraRank + m.qkRopeHeadDim) + m.kvLoraRank * a * (m.qkNopeHeadDim + dv) +
                      a * dv * d;
    }
    const double matrices = isGatedMlp(m) ? 3 : 2;
    // Windowed layers score the pairs within the window (model FLOPs, whatever the kernel computes).
    const double Lw = m.slidingWindow > 0 ? windowedLayerCount(m) : 0;
    const double scorePerPair = 2 * sequences * a * (dqk + dv);
    const double scores = scorePerPair * ((L - Lw) * scoredPairs(m.seq, 0, in.attention) +
                                          Lw * scoredPairs(m.seq, m.slidingWindow, in.attention));
    double mlps = L * matrices * d * f;
    if (isMixtureOfExperts(m)) { // per token: K experts, the shared expert, the router; dense-first layers
        const double Lm = L - m.denseLayers;
        const double shared = m.sharedFfnDim > 0 ? matrices * d * m.sharedFfnDim + (m.sharedExpertGate ? d : 0)
                                                 : 0.0;
        mlps = m.denseLayers * matrices * d * f + Lm * (m.topK * matrices * d * expertWidth(m) + shared +
                                                        d * m.experts);
    }
    return 2 * T * (L * projections + mlps) + scores + 2 * T * d * m.vocab;
}

StepOpList stepOps(const AccountingInput& in, const AccountingResult& r, PipelineStage stage) {
    StepOpList list;
    list.dtype = r.precision.compute;
    list.activations = r.precision.activations;
    list.microbatchesPerStep = in.parallel.microbatches;
    if (isFineTuningSet(in.fineTuning)) {
        list.whyNot = "fine-tuning (frozen weights, adapters, offload) is not in the step-time model yet";
        return list;
    }
    if (in.model.kind == ModelKind::transformer) {
        list.whyNot = transformerNotModelled(in.model);
        if (!list.whyNot.empty())
            return list;
    }
    StepOpsBuilder builder(in, r, list, stage);
    switch (in.model.kind) {
    case ModelKind::transformer:
        builder.addTransformer();
        break;
    case ModelKind::dense:
        builder.addDense();
        break;
    case ModelKind::cruncher:
    case ModelKind::linear2:
        builder.addLinearStack();
        break;
    }
    builder.addOptimizer();
    return list;
}

} // namespace napkin
