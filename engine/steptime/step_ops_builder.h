// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to engine/steptime: appends the ops of one model family to a StepOpList (step_ops.h).
#include "engine/steptime/step_ops.h"

namespace napkin {

class StepOpsBuilder {
public:
    /// The ops of one GPU of pipeline `stage` (the embedding on the first, the head and loss on the last).
    StepOpsBuilder(const AccountingInput& input, const AccountingResult& result, StepOpList& list,
                   PipelineStage stage = PipelineStage::last);

    /// GPT-2- and Llama-style blocks on the stage, forward, backward and recompute.
    void addTransformer();
    /// A bare parameter count: its GEMMs of 2·T·N forward, shape unknown.
    void addDense();
    /// Cruncher (L D×D layers and a D×1 head) and linear2 (D×D then D×K): GEMMs over the batch.
    void addLinearStack();
    /// The optimizer's update over this GPU's shard, and gradient accumulation over the micro-batches.
    void addOptimizer();

private:
    // A GEMM of batch × [m×k]·[k×n] on `count` occurrences: forward one GEMM, backward two (the input's
    // gradient unless `inputGradient` is false, and the weight's), `recompute` once more in that phase.
    void gemm(const std::string& name, double m, double n, double k, double batch, double count,
              bool recompute, bool inputGradient = true);
    // A memory-bound op: forward bytes and ops, backward bytes and ops (0: none), `recompute` again.
    void memory(const std::string& name, double elements, double forwardBytesPerElement, double forwardOps,
                double backwardBytesPerElement, double backwardOps, double count, bool recompute);
    void push(StepOp op);
    /// Attention of `count` layers; `window` > 0: sliding-window layers (flash attention scores the pairs
    /// within the window; eager attention scores all s×s and masks, as PyTorch does).
    void addAttention(double count, bool recomputeLayer, double window = 0);
    /// A dense MLP of `width` (on this GPU) over `tokens` rows, `count` times; `prefix` names its GEMMs.
    void addMlp(const std::string& prefix, double tokens, double width, double count, bool recompute);
    /// A mixture of experts' MLP part of `layers` layers (step_ops_experts.cpp): router, dispatch, each
    /// GPU's experts over the tokens routed to them, combine, the shared expert; dense-first layers' MLP.
    void addExperts(double layers, bool recompute);
    /// Multi-head latent attention's projections of `layers` layers over `tokens` rows
    /// (step_ops_latent_attention.cpp).
    void addLatentProjections(double tokens, double layers, bool recompute);
    /// Hugging Face's eager RMSNorm over `elements` (statistics in fp32), `count` times.
    void rmsNorm(const std::string& name, double elements, double count, bool recompute);
    void addHeadAndLoss();
    void addEmbeddings();
    double parameterTensorsOnGpu() const;

    const AccountingInput& m_in;
    const AccountingResult& m_r;
    StepOpList& m_list;
    double m_activationBytes = 4; ///< per element of an activation
    PipelineStage m_stage = PipelineStage::last;
};

} // namespace napkin
