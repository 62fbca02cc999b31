// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// llm-analysis (cli99/llm-analysis, llm_analysis/analysis.py): the weights, gradients and optimizer state
// per GPU its train() reports, and what it would report for a Napkin setup beside Napkin's number.
#include "engine/accounting/accounting.h"
#include "engine/peers/peer_estimate.h"

namespace napkin {

/// The ModelConfig, ParallelismConfig and DtypeConfig fields the memory formulas read.
struct LlmAnalysisArgs {
    double hidden = 0, heads = 0, kvHeads = 0, ffn = 0, layers = 0, vocab = 0; ///< hidden_dim, n_head, ...
    double experts = 1;                                                        ///< moe_num_experts
    double tp = 1, pp = 1, dp = 1, ep = 1;
    double weightBytes = 2;         ///< weight_bits / 8
    double embeddingBytes = 2;      ///< embedding_bits / 8
    double masterBytes = 4;         ///< master_weights_dtype_bytes (the gradients' bytes too)
    double otherOptimizerBytes = 8; ///< other_op_bytes: Adam's momentum and variance
    int zero = 0;                   ///< ds_zero
};

/// Which code: the analysis.py read (commit 08d7f8f), or the one that wrote the repository's
/// examples/*/outputs_train summaries (commit b60b392): no norms, 16-bit gradients and 16 B of optimizer
/// state per layer parameter, nothing for the embedding but its weights.
enum class LlmAnalysisRelease { current, examplesB60b392 };

struct LlmAnalysisModelStates {
    double parameters = 0; ///< num_params_total: L·(attention + MLP + router + norms) + V·h + h
    double weights = 0, gradients = 0, optimizerState = 0; ///< per GPU, bytes
};

/// get_num_params_total and train()'s weight_memory_per_gpu, gradient_memory_per_gpu and
/// optimizer_state_memory_per_gpu: every term / tp (the norms too), L/pp layers plus the embedding on
/// every GPU, ZeRO-1 sharding the optimizer state, ZeRO-2 the gradients, ZeRO-3 the weights over dp.
LlmAnalysisModelStates llmAnalysisModelStates(const LlmAnalysisArgs& args,
                                              LlmAnalysisRelease release = LlmAnalysisRelease::current);

/// llm-analysis's weights + gradients + optimizer state per GPU beside Napkin's model states.
PeerEstimate llmAnalysisEstimate(const AccountingInput& input, const AccountingResult& result);

} // namespace napkin
