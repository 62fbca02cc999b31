// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to engine/steptime: appends the forward ops of one serving pass to a StepOpList (inference_ops.h),
// the dense blocks in inference_ops.cpp, a mixture of experts' MLP part in inference_ops_experts.cpp and
// multi-head latent attention in inference_ops_latent_attention.cpp, as the training step's builder is split
// (step_ops_builder.h).
#include "engine/steptime/inference_ops.h"

#include <string>

namespace napkin {

class InferenceOpsBuilder {
public:
    InferenceOpsBuilder(const InferenceInput& input, InferencePass pass, StepOpList& list);

    /// Every op of the pass on one GPU of the input's N, then what the list leaves out.
    void build();

private:
    double prompt() const;
    /// Rows the pass's GEMMs run over: B·P (prefill) or B (decode).
    double tokens() const;
    bool decode() const { return m_pass == InferencePass::decode; }

    void push(StepOp op);
    /// A linear layer y = x·Wᵀ over `m` rows, W [n×k] at `weightBytes` each, read once; `count` layers.
    void gemm(const std::string& name, double m, double n, double k, double count, double weightBytes);
    /// `batch` linear layers side by side, each over its own `m` rows and its own [n×k] weights (a grouped
    /// GEMM: the experts a step reads, latent attention's per-head absorbed matrices); one launch.
    void groupedGemm(const std::string& name, double m, double n, double k, double batch, double count,
                     double weightBytes);
    /// A batched GEMM of activations alone (attention): batch × [m×k]·[k×n], `bytes` read and written.
    void batched(const std::string& name, double m, double n, double k, double batch, double bytes,
                 double count, std::string shape = {});
    void memory(const std::string& name, double elements, double bytesPerElement, double ops, double count);
    /// The model's norm (LayerNorm or RMSNorm) over `elements`, `count` times.
    void norm(const std::string& name, double elements, double count);
    /// Hugging Face's RMSNorm (statistics in fp32), whatever the model's norm: latent attention's latents.
    void rmsNorm(const std::string& name, double elements, double count);

    void embeddings();
    /// q, k and v (or nanoGPT's fused qkv) and RoPE on them, for every layer.
    void projections();
    /// The keys and values of `tokens` new tokens of `layers` layers into the cache.
    void cacheWrite(double tokensPerSequence, double layers);
    /// Attention of `layers` layers; `window` > 0: a sliding window of that many keys.
    void attention(double layers, double window);
    void flashAttention(double layers, double window);
    void eagerAttention(double layers, double window);
    /// A dense MLP of `width` (on this GPU), `count` layers; `prefix` names its GEMMs ("mlp").
    void mlp(const std::string& prefix, double width, double count);
    /// A mixture of experts' MLP part (inference_ops_experts.cpp): the dense-first layers' MLP, router,
    /// dispatch, the experts the step reads, combine, the shared expert.
    void experts();
    /// Latent attention's q and kv projections up to the heads' (prefill: the training step's forward) and
    /// RoPE (inference_ops_latent_attention.cpp).
    void latentProjections();
    /// Decode's latent attention with the up-projections absorbed (inference_ops_latent_attention.cpp):
    /// q_nope into the latent, attention over the cached latents, the output back to the heads' values.
    void absorbedLatentAttention(double layers, double window);
    void notes();

    /// The keys a decode step's query attends to: S, or min(S, W) in a windowed layer.
    double decodeKeys(double window) const;
    /// Bytes per weight of the layers' matrices: the serving format, or 16-bit where the format covers the
    /// routed experts alone (gpt-oss's MXFP4).
    double layerWeightBytes() const;

    const InferenceInput& m_in;
    InferencePass m_pass;
    StepOpList& m_list;
    double m_e;     ///< bytes per activation element
    double m_w;     ///< bytes per quantized weight, scales included
    double m_other; ///< bytes per 16-bit (or fp32) parameter: the head, embeddings, router
    double m_kv;    ///< bytes per cached element
};

} // namespace napkin
