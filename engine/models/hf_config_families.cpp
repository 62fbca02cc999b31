// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/hf_config_families.h"

#include "engine/models/model_presets.h"

#include <string>
#include <vector>

namespace napkin {
namespace {

// The sizes every Llama-descended config spells the same way; the family's choices (SwiGLU, RMSNorm,
// no biases, RoPE, untied, flash attention, no dropout) as the starting point.
ModelSpec llamaSizes(HfConfigKeys& k, bool tiedByDefault) {
    ModelSpec m = withArchitectureFamily(ModelSpec{}, ArchitectureFamily::llama);
    m.kind = ModelKind::transformer;
    m.dModel = k.whole("hidden_size");
    m.layers = k.whole("num_hidden_layers");
    m.heads = k.whole("num_attention_heads");
    if (const auto g = k.optionalWhole("num_key_value_heads"); g && *g != m.heads)
        m.kvHeads = *g;
    m.ffnDim = k.whole("intermediate_size");
    m.vocab = k.whole("vocab_size");
    m.seq = k.whole("max_position_embeddings");
    m.embeddings = k.optionalBool("tie_word_embeddings").value_or(tiedByDefault) ? EmbeddingTying::tied
                                                                                 : EmbeddingTying::untied;
    // head_dim only when it is not d/a, so that the Llama shapes keep their closed forms.
    if (const auto hd = k.optionalWhole("head_dim"); hd && *hd * m.heads != m.dModel)
        m.headDim = *hd;
    if (const auto act = k.optionalString("hidden_act"); act && act->rfind("gelu", 0) == 0)
        m.mlp = MlpKind::geglu;
    k.touch("rms_norm_eps");
    return m;
}

void attentionBias(HfConfigKeys& k, ModelSpec& m) {
    if (const auto b = k.optionalBool("attention_bias"); b && *b) {
        m.qkvBias = true;
        m.outBias = true;
    }
    if (const auto b = k.optionalBool("mlp_bias"); b && *b)
        m.mlpBias = true;
}

void slidingWindowAll(HfConfigKeys& k, ModelSpec& m) {
    if (const auto w = k.optionalWhole("sliding_window"); w && *w > 0 && *w < m.seq)
        m.slidingWindow = *w;
}

// Explicit "layer_types": ["sliding_attention", "full_attention", ...] (newer Gemma and Qwen configs).
bool layerTypes(HfConfigKeys& k, ModelSpec& m) {
    const auto types = k.optionalStrings("layer_types");
    if (!types)
        return false;
    m.windowedLayers.clear();
    for (const std::string& t : *types)
        m.windowedLayers.push_back(t == "sliding_attention");
    return true;
}

ModelSpec qwen2(HfConfigKeys& k) {
    ModelSpec m = llamaSizes(k, false);
    m.qkvBias = true; // Qwen2's q, k, v projections carry biases, o and the MLP none
    if (k.optionalBool("use_sliding_window").value_or(false)) {
        const double window = k.whole("sliding_window");
        const double from = k.optionalWhole("max_window_layers").value_or(m.layers);
        if (window < m.seq && from < m.layers) {
            m.slidingWindow = window;
            const auto layers = static_cast<long long>(m.layers); // whole: k.whole("num_hidden_layers")
            for (long long i = 0; i < layers; ++i)
                m.windowedLayers.push_back(static_cast<double>(i) >= from); // modeling_qwen2: layer_idx >= max_window_layers
        }
    } else {
        k.touch("sliding_window");
        k.touch("max_window_layers");
    }
    return m;
}

void routedExperts(HfConfigKeys& k, ModelSpec& m, const char* expertsKey) {
    m.experts = k.whole(expertsKey);
    m.topK = k.whole("num_experts_per_tok");
    if (const auto fe = k.optionalWhole("moe_intermediate_size"))
        m.expertFfnDim = *fe;
    if (const auto step = k.optionalWhole("decoder_sparse_step"); step && *step != 1)
        throw HfConfigKeyError("decoder_sparse_step: only 1 (every layer sparse) is supported, got " +
                               std::to_string(static_cast<long long>(*step)));
    if (const auto only = k.optionalStrings("mlp_only_layers"); only && !only->empty())
        throw HfConfigKeyError("mlp_only_layers: only an empty list is supported");
}

ModelSpec gemma(HfConfigKeys& k, std::string_view type) {
    ModelSpec m = llamaSizes(k, true);
    m.mlp = MlpKind::geglu; // GeGLU: gelu_pytorch_tanh on the gate
    k.touch("hidden_activation");
    if (type == "gemma")
        return m;
    m.normPlacement = NormPlacement::sandwich; // pre- and post-norm around attention and the MLP
    if (type == "gemma3")
        m.qkNorm = QkNorm::head;
    const auto w = k.optionalWhole("sliding_window");
    if (!layerTypes(k, m) && w)
        m.globalEvery = type == "gemma2" ? 2 : k.optionalWhole("sliding_window_pattern").value_or(6);
    if (w && *w < m.seq) {
        m.slidingWindow = *w;
    } else { // no window, or one as long as the context: every layer global
        m.windowedLayers.clear();
        m.globalEvery = 0;
    }
    return m;
}

ModelSpec deepseek(HfConfigKeys& k, std::string_view type) {
    ModelSpec m = llamaSizes(k, false);
    m.kvHeads = 0; // MLA: num_key_value_heads is unused by the latent attention
    m.headDim = 0;
    m.qLoraRank = k.optionalWhole("q_lora_rank").value_or(0); // null in DeepSeek-V2-Lite: q projected directly
    m.kvLoraRank = k.whole("kv_lora_rank");
    m.qkNopeHeadDim = k.whole("qk_nope_head_dim");
    m.qkRopeHeadDim = k.whole("qk_rope_head_dim");
    m.vHeadDim = k.whole("v_head_dim");
    attentionBias(k, m);
    m.experts = k.whole("n_routed_experts");
    m.topK = k.whole("num_experts_per_tok");
    m.expertFfnDim = k.whole("moe_intermediate_size");
    m.sharedFfnDim = k.optionalWhole("n_shared_experts").value_or(0) * m.expertFfnDim;
    m.denseLayers = k.optionalWhole("first_k_dense_replace").value_or(0);
    if (const auto freq = k.optionalWhole("moe_layer_freq"); freq && *freq != 1)
        throw HfConfigKeyError("moe_layer_freq: only 1 (every layer past the dense ones) is supported");
    m.routerBias = type == "deepseek_v3"; // e_score_correction_bias, one per routed expert
    k.touch("topk_method");
    return m;
}

ModelSpec gptNeox(HfConfigKeys& k) {
    ModelSpec m = withArchitectureFamily(ModelSpec{}, ArchitectureFamily::gpt2);
    m.kind = ModelKind::transformer;
    m.dModel = k.whole("hidden_size");
    m.layers = k.whole("num_hidden_layers");
    m.heads = k.whole("num_attention_heads");
    m.ffnDim = k.whole("intermediate_size");
    m.vocab = k.whole("vocab_size");
    m.seq = k.whole("max_position_embeddings");
    m.position = PositionKind::rope; // rotary on rotary_pct of each head: no parameters either way
    m.embeddings = k.optionalBool("tie_word_embeddings").value_or(false) ? EmbeddingTying::tied
                                                                         : EmbeddingTying::untied;
    if (const auto b = k.optionalBool("attention_bias"); b && !*b)
        m.qkvBias = m.outBias = false;
    m.dropout = false;
    m.attentionImpl = AttentionImpl::flash;
    k.touch("use_parallel_residual"); // parallel residual still has both norms
    k.touch("rotary_pct");
    k.touch("layer_norm_eps");
    k.touch("hidden_act");
    return m;
}

ModelSpec falcon(HfConfigKeys& k) {
    ModelSpec m = withArchitectureFamily(ModelSpec{}, ArchitectureFamily::gpt2);
    m.kind = ModelKind::transformer;
    m.dModel = k.wholeOf({"hidden_size", "n_embed"});
    m.layers = k.wholeOf({"num_hidden_layers", "n_layer"});
    m.heads = k.wholeOf({"num_attention_heads", "n_head"});
    m.vocab = k.whole("vocab_size");
    m.seq = k.optionalWhole("max_position_embeddings").value_or(2048); // FalconConfig's default
    if (const auto f = k.optionalWhole("ffn_hidden_size"))
        m.ffnDim = *f;
    const bool newArchitecture = k.optionalBool("new_decoder_architecture").value_or(false);
    if (newArchitecture) {
        if (const auto g = k.optionalWhole("num_kv_heads"); g && *g != m.heads)
            m.kvHeads = *g; // two norms (ln_attn, ln_mlp) per layer: the pre placement's count
    } else {
        if (k.optionalBool("multi_query").value_or(true))
            m.kvHeads = 1;
        if (k.optionalBool("parallel_attn").value_or(true))
            m.normPlacement = NormPlacement::parallel; // one input LayerNorm feeds attention and the MLP
    }
    m.bias = k.optionalBool("bias").value_or(false); // the linear layers; LayerNorm keeps its bias
    m.normBias = true;
    if (k.optionalBool("alibi").value_or(false))
        throw HfConfigKeyError("alibi: ALiBi positions are not modelled (true)");
    m.position = PositionKind::rope;
    m.embeddings = k.optionalBool("tie_word_embeddings").value_or(true) ? EmbeddingTying::tied
                                                                        : EmbeddingTying::untied;
    m.dropout = false;
    m.attentionImpl = AttentionImpl::flash;
    k.touch("layer_norm_epsilon");
    return m;
}

ModelSpec gpt2(HfConfigKeys& k) {
    ModelSpec m; // every architecture default is GPT-2's
    m.kind = ModelKind::transformer;
    m.dModel = k.whole("n_embd");
    m.layers = k.whole("n_layer");
    m.heads = k.whole("n_head");
    m.vocab = k.whole("vocab_size");
    m.seq = k.whole("n_positions");
    if (const auto inner = k.optionalWhole("n_inner"))
        m.ffnDim = *inner;
    if (const auto tied = k.optionalBool("tie_word_embeddings"); tied && !*tied)
        m.embeddings = EmbeddingTying::untied;
    k.touch("activation_function");
    k.touch("n_ctx");
    k.touch("resid_pdrop");
    k.touch("attn_pdrop");
    k.touch("embd_pdrop");
    return m;
}

// gpt-oss (modeling_gpt_oss.py): Llama's sizes with biased q, k, v, o; a learned sink logit per head; every
// layer a mixture of experts whose router and experts carry biases (gate_up_proj_bias, down_proj_bias),
// the experts' SwiGLU clamped at swiglu_limit (no parameter); sliding-window and full layers alternating.
ModelSpec gptOss(HfConfigKeys& k) {
    ModelSpec m = llamaSizes(k, false);
    attentionBias(k, m);
    m.attentionSinks = true;
    routedExperts(k, m, "num_local_experts");
    m.mlpBias = true;
    m.routerBias = true;     // the router is nn.Linear(d, E) with its bias
    if (!layerTypes(k, m)) { // GptOssConfig: sliding where (i + 1) % 2, i.e. layers 0, 2, 4, ...
        const auto layers = static_cast<long long>(m.layers);
        for (long long i = 0; i < layers; ++i)
            m.windowedLayers.push_back((i + 1) % 2 != 0);
    }
    if (const auto w = k.optionalWhole("sliding_window"); w && *w > 0 && *w < m.seq) {
        m.slidingWindow = *w;
    } else {
        m.windowedLayers.clear();
    }
    for (const char* key : {"swiglu_limit", "experts_per_token", "initial_context_length", "hidden_act"})
        k.touch(key);
    return m;
}

// Llama 4's language model (modeling_llama4.py): MoE layers at moe_layers (or every
// interleave_moe_layer_step-th), each with E routed experts of intermediate_size, one shared expert of the
// same width and a bias-free router; the other layers a dense MLP of intermediate_size_mlp. RoPE layers
// attend within chunks of attention_chunk_size, NoPE layers (no_rope_layers 0) globally; the QK L2 norm has
// no weight. A chunked layer caches at most one chunk, as a window of that length does.
ModelSpec llama4Text(HfConfigKeys& k) {
    ModelSpec m = llamaSizes(k, false);
    attentionBias(k, m);
    m.expertFfnDim = m.ffnDim;                   // intermediate_size: each routed expert's width
    m.ffnDim = k.whole("intermediate_size_mlp"); // the dense layers' MLP
    m.experts = k.whole("num_local_experts");
    m.topK = k.whole("num_experts_per_tok");
    m.sharedFfnDim = m.expertFfnDim; // Llama4TextMoe.shared_expert: one MLP of intermediate_size
    const auto layers = static_cast<long long>(m.layers);
    double moeCount = 0;
    if (const auto listed = k.optionalWholes("moe_layers")) {
        for (const double i : *listed)
            if (i >= m.layers)
                throw HfConfigKeyError("moe_layers: layer " + std::to_string(static_cast<long long>(i)) +
                                       " is past num_hidden_layers");
        moeCount = static_cast<double>(listed->size());
    } else {
        const double step = k.whole("interleave_moe_layer_step");
        if (step < 1)
            throw HfConfigKeyError("interleave_moe_layer_step: expected 1 or more, got 0");
        for (long long i = static_cast<long long>(step) - 1; i < layers; i += static_cast<long long>(step))
            moeCount += 1; // Llama4TextConfig: range(step - 1, L, step)
    }
    if (moeCount == 0 || m.experts <= 1) {
        m.experts = m.topK = 1;
        m.expertFfnDim = m.sharedFfnDim = 0;
    } else {
        m.denseLayers =
            m.layers - moeCount; // interleaved, not first: counts and memory do not depend on where
    }
    std::vector<bool> chunked;
    if (const auto rope = k.optionalWholes("no_rope_layers"); rope && !rope->empty()) {
        if (static_cast<double>(rope->size()) < m.layers)
            throw HfConfigKeyError("no_rope_layers: needs an entry per layer (" + std::to_string(layers) +
                                   ")");
        for (long long i = 0; i < layers; ++i)
            chunked.push_back((*rope)[static_cast<std::size_t>(i)] != 0); // 1: RoPE, chunked; 0: NoPE, global
    } else {
        const double interval = k.whole("no_rope_layer_interval");
        for (long long i = 0; i < layers; ++i)
            chunked.push_back(interval == 0 || (i + 1) % static_cast<long long>(interval) != 0);
    }
    if (const auto chunk = k.optionalWhole("attention_chunk_size"); chunk && *chunk > 0 && *chunk < m.seq) {
        m.slidingWindow = *chunk;
        m.windowedLayers = chunked;
    }
    for (const char* key :
         {"use_qk_norm", "hidden_act", "attn_temperature_tuning", "floor_scale", "attn_scale"})
        k.touch(key);
    return m;
}

} // namespace

bool readHfFamily(std::string_view type, HfConfigKeys& k, ModelSpec& m) {
    if (type == "llama" || type == "mistral" || type == "mixtral" || type == "phi3") {
        m = llamaSizes(k, false);
        attentionBias(k, m);
        slidingWindowAll(k, m);
        if (type == "mixtral")
            routedExperts(k, m, "num_local_experts");
    } else if (type == "qwen2") {
        m = qwen2(k);
    } else if (type == "qwen2_moe") {
        m = qwen2(k);
        routedExperts(k, m, "num_experts");
        if (const auto shared = k.optionalWhole("shared_expert_intermediate_size"); shared && *shared > 0) {
            m.sharedFfnDim = *shared;
            m.sharedExpertGate = true; // a d×1 sigmoid gate scales the shared expert
        }
    } else if (type == "qwen3" || type == "qwen3_moe") {
        m = llamaSizes(k, false);
        attentionBias(k, m);
        m.qkNorm = QkNorm::head;
        if (type == "qwen3_moe")
            routedExperts(k, m, "num_experts");
        k.touch("use_sliding_window");
        k.touch("sliding_window");
        k.touch("max_window_layers");
    } else if (type == "gemma" || type == "gemma2" || type == "gemma3") {
        m = gemma(k, type);
    } else if (type == "olmo2") {
        m = llamaSizes(k, false);
        attentionBias(k, m);
        m.normPlacement = NormPlacement::post; // post_attention_layernorm, post_feedforward_layernorm
        m.qkNorm = QkNorm::whole;               // q_norm over a·d_h, k_norm over g·d_h
    } else if (type == "deepseek_v2" || type == "deepseek_v3") {
        m = deepseek(k, type);
    } else if (type == "gpt_neox") {
        m = gptNeox(k);
    } else if (type == "falcon") {
        m = falcon(k);
    } else if (type == "gpt2") {
        m = gpt2(k);
    } else if (type == "gpt_oss") {
        m = gptOss(k);
    } else if (type == "llama4") {
        m = llama4Text(k);
    } else {
        return false;
    }
    return true;
}

} // namespace napkin
