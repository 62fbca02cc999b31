// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Megatron-LM's own estimates, as its code computes them from its arguments: the theoretical memory
// (megatron/training/theoretical_memory_usage.py, NVIDIA/Megatron-LM commit 00caa53) and the FLOP count
// it logs (megatron/training/training.py, num_floating_point_operations, commit 001b00c). Each function
// follows the file's arithmetic, conventions and errors included; the peer estimate names them.
#include <optional>

namespace napkin {

/// The Megatron arguments these formulas read (their names in parentheses).
struct MegatronArgs {
    double hidden = 0;      ///< hidden_size h
    double ffnHidden = 0;   ///< ffn_hidden_size f
    double heads = 0;       ///< num_attention_heads a
    double queryGroups = 0; ///< num_query_groups g (= a without group_query_attention)
    double kvChannels = 0;  ///< kv_channels: the width of one head
    double layers = 0;      ///< num_layers L
    double paddedVocab = 0; ///< padded_vocab_size
    double seq = 0;         ///< seq_length s
    double microBatch = 1;  ///< micro_batch_size b
    double tp = 1, pp = 1, dp = 1;
    std::optional<double> virtualPipeline; ///< virtual_pipeline_model_parallel_size
    bool swiglu = false;
    bool rmsnorm = false; ///< normalization == "RMSNorm" (norm_size 1, else 2)
    bool untiedEmbeddings = false;
    bool distributedOptimizer = false;
    bool sequenceParallel = false;
    bool selectiveRecompute = false; ///< recompute_granularity == "selective"
    // Mixture of experts (num_experts unset: dense).
    std::optional<double> experts;
    double moeLayers = 0;       ///< layers with experts (the 1s of moe_layer_freq)
    double moeFfnHidden = 0;    ///< moe_ffn_hidden_size
    double sharedExpertFfn = 0; ///< moe_shared_expert_intermediate_size
    double topK = 1;            ///< moe_router_topk
};

/// --make-vocab-size-divisible-by (128 by default) × tp: the vocabulary rounded up to that multiple.
double megatronPaddedVocab(double vocab, double tp, double divisibleBy = 128);

/// compute_weight_and_optimizer_memory's parameter counts: the whole model (transformer block with the
/// final norm, and the embedding(s)) and the most loaded shard ((block/pp + embedding)/tp, plus the output
/// layer's V·h/tp when untied and pp = 1). No linear biases; norm_size 2 (LayerNorm) or 1 (RMSNorm) per
/// norm, two norms per layer; no position table.
double megatronParameters(const MegatronArgs& args);
double megatronTransformerBlockParameters(const MegatronArgs& args);
double megatronMostLoadedShardParameters(const MegatronArgs& args);
/// Bytes per parameter: 18 (2 params + 4 fp32 main grads + 4 master + 8 Adam), or 6 + 12/dp with the
/// distributed optimizer.
double megatronBytesPerParameter(const MegatronArgs& args);
/// Most loaded shard × bytes per parameter.
double megatronWeightAndOptimizerBytes(const MegatronArgs& args);

/// The pieces of report_theoretical_memory's activation estimate (bytes, first pipeline stage), so that
/// each can be set beside Napkin's. `total` = (layers + embedding) × schedule + output, × overhead.
struct MegatronActivations {
    bool withSequenceParallel = false; ///< compute_activation_memory (SP + selective) or ..._without_sp
    double layers = 0;    ///< the L layers' tensors after the pipeline schedule's factor, per GPU
    double embedding = 0; ///< input ids (8 B) and the embedding's dropout mask (1 B), p micro-batches
    double output = 0;    ///< pp = 1: final norm output and logits
    double overhead = 0;  ///< without SP: the 5 % "buffer for optimizer and miscellaneous temporaries"
    double total = 0;
};
/// `numMicrobatches` unset: as Megatron's None (p micro-batches in flight).
MegatronActivations megatronActivations(const MegatronArgs& args, std::optional<double> numMicrobatches);

/// num_floating_point_operations(args, batch_size) for a dense or MoE transformer with MHA/GQA: forward
/// and backward (3 × 2 FLOPs per multiply-add), attention at s/2 (causal) per query, logits over the padded
/// vocabulary, no biases, norms or router.
double megatronFlops(const MegatronArgs& args, double batchSize);
/// Its attention-score part (QKᵀ and (QKᵀ)V): 3 · 2 · a·kv_channels · s/2 · 2 per token per layer.
double megatronAttentionScoreFlops(const MegatronArgs& args, double batchSize);
/// Its logit part: 3 · 2 · h · padded vocab per token.
double megatronLogitFlops(const MegatronArgs& args, double batchSize);

} // namespace napkin
