// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/hf_config_defaults.h"

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <string>

namespace napkin {
namespace {

struct ClassDefaults {
    std::string_view family, source, json;
};

// Read from huggingface/transformers' src/transformers/models/<family>/configuration_<family>.py at the
// commit named; only the keys hf_config_families.cpp reads. A key whose default is None in the class
// (num_key_value_heads: "= num_attention_heads", head_dim: "= hidden_size // num_attention_heads") is
// left out: the family's reader already derives it that way.
constexpr std::array<ClassDefaults, 18> kDefaults{{
    {"llama", "transformers LlamaConfig (models/llama/configuration_llama.py, commit 008e574)",
     R"({"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
         "num_attention_heads": 32, "max_position_embeddings": 2048, "tie_word_embeddings": false,
         "attention_bias": false, "mlp_bias": false})"},
    {"mistral", "transformers MistralConfig (models/mistral/configuration_mistral.py, commit 001f85b)",
     R"({"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
         "num_attention_heads": 32, "num_key_value_heads": 8, "max_position_embeddings": 131072,
         "tie_word_embeddings": false, "sliding_window": 4096})"},
    {"mixtral", "transformers MixtralConfig (models/mixtral/configuration_mixtral.py, commit 008e574)",
     R"({"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
         "num_attention_heads": 32, "num_key_value_heads": 8, "max_position_embeddings": 131072,
         "tie_word_embeddings": false, "num_experts_per_tok": 2, "num_local_experts": 8})"},
    {"qwen2", "transformers Qwen2Config (models/qwen2/configuration_qwen2.py, commit 008e574)",
     R"({"vocab_size": 151936, "hidden_size": 4096, "intermediate_size": 22016, "num_hidden_layers": 32,
         "num_attention_heads": 32, "num_key_value_heads": 32, "max_position_embeddings": 32768,
         "tie_word_embeddings": false, "use_sliding_window": false, "sliding_window": 4096,
         "max_window_layers": 28})"},
    {"qwen2_moe", "transformers Qwen2MoeConfig (models/qwen2_moe/configuration_qwen2_moe.py, commit 008e574)",
     R"({"vocab_size": 151936, "hidden_size": 2048, "intermediate_size": 5632, "num_hidden_layers": 24,
         "num_attention_heads": 16, "num_key_value_heads": 16, "max_position_embeddings": 32768,
         "tie_word_embeddings": false, "use_sliding_window": false, "sliding_window": 4096,
         "max_window_layers": 28, "decoder_sparse_step": 1, "moe_intermediate_size": 1408,
         "shared_expert_intermediate_size": 5632, "num_experts_per_tok": 4, "num_experts": 60})"},
    {"qwen3", "transformers Qwen3Config (models/qwen3/configuration_qwen3.py, commit 008e574)",
     R"({"vocab_size": 151936, "hidden_size": 4096, "intermediate_size": 22016, "num_hidden_layers": 32,
         "num_attention_heads": 32, "num_key_value_heads": 32, "head_dim": 128,
         "max_position_embeddings": 32768, "tie_word_embeddings": false, "attention_bias": false})"},
    {"qwen3_moe", "transformers Qwen3MoeConfig (models/qwen3_moe/configuration_qwen3_moe.py, commit 008e574)",
     R"({"vocab_size": 151936, "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 24,
         "num_attention_heads": 32, "num_key_value_heads": 4, "max_position_embeddings": 32768,
         "tie_word_embeddings": false, "attention_bias": false, "decoder_sparse_step": 1,
         "moe_intermediate_size": 768, "num_experts_per_tok": 8, "num_experts": 128})"},
    {"gemma", "transformers GemmaConfig (models/gemma/configuration_gemma.py, commit 008e574)",
     R"({"vocab_size": 256000, "hidden_size": 3072, "intermediate_size": 24576, "num_hidden_layers": 28,
         "num_attention_heads": 16, "num_key_value_heads": 16, "head_dim": 256,
         "max_position_embeddings": 8192, "tie_word_embeddings": true, "attention_bias": false})"},
    {"gemma2", "transformers Gemma2Config (models/gemma2/configuration_gemma2.py, commit 008e574)",
     R"({"vocab_size": 256000, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
         "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "max_position_embeddings": 8192,
         "tie_word_embeddings": true, "attention_bias": false, "sliding_window": 4096})"},
    {"gemma3", "transformers Gemma3TextConfig (models/gemma3/configuration_gemma3.py, v4.50, commit 008f5c8)",
     R"({"vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
         "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
         "max_position_embeddings": 131072, "tie_word_embeddings": true, "attention_bias": false,
         "sliding_window": 4096, "sliding_window_pattern": 6})"},
    {"phi3", "transformers Phi3Config (models/phi3/configuration_phi3.py, commit 008e574)",
     R"({"vocab_size": 32064, "hidden_size": 3072, "intermediate_size": 8192, "num_hidden_layers": 32,
         "num_attention_heads": 32, "max_position_embeddings": 4096, "tie_word_embeddings": false})"},
    {"olmo2", "transformers Olmo2Config (models/olmo2/configuration_olmo2.py, commit 008e574)",
     R"({"vocab_size": 50304, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
         "num_attention_heads": 32, "max_position_embeddings": 2048, "tie_word_embeddings": false,
         "attention_bias": false})"},
    {"gpt_neox", "transformers GPTNeoXConfig (models/gpt_neox/configuration_gpt_neox.py, commit 008e574)",
     R"({"vocab_size": 50432, "hidden_size": 6144, "num_hidden_layers": 44, "num_attention_heads": 64,
         "intermediate_size": 24576, "max_position_embeddings": 2048, "tie_word_embeddings": false,
         "attention_bias": true})"},
    {"gpt2", "transformers GPT2Config (models/gpt2/configuration_gpt2.py, commit 01ae98a)",
     R"({"vocab_size": 50257, "n_positions": 1024, "n_embd": 768, "n_layer": 12, "n_head": 12})"},
    {"deepseek_v2",
     "transformers DeepseekV2Config (models/deepseek_v2/configuration_deepseek_v2.py, commit 008e574)",
     R"({"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
         "num_attention_heads": 32, "max_position_embeddings": 2048, "tie_word_embeddings": false,
         "attention_bias": false, "first_k_dense_replace": 0, "kv_lora_rank": 512, "q_lora_rank": 1536,
         "n_routed_experts": 64, "n_shared_experts": 2, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
         "v_head_dim": 128, "moe_intermediate_size": 1407})"},
    {"deepseek_v3",
     "transformers DeepseekV3Config (models/deepseek_v3/configuration_deepseek_v3.py, commit 001f85b)",
     R"({"vocab_size": 129280, "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
         "num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128,
         "n_shared_experts": 1, "n_routed_experts": 256, "kv_lora_rank": 512, "q_lora_rank": 1536,
         "qk_rope_head_dim": 64, "v_head_dim": 128, "qk_nope_head_dim": 128, "num_experts_per_tok": 8,
         "first_k_dense_replace": 3, "max_position_embeddings": 4096, "tie_word_embeddings": false,
         "attention_bias": false})"},
    {"gpt_oss", "transformers GptOssConfig (models/gpt_oss/configuration_gpt_oss.py, commit 02b8f42)",
     R"({"num_hidden_layers": 36, "num_local_experts": 128, "vocab_size": 201088, "hidden_size": 2880,
         "intermediate_size": 2880, "head_dim": 64, "num_attention_heads": 64, "num_key_value_heads": 8,
         "sliding_window": 128, "tie_word_embeddings": false, "max_position_embeddings": 131072,
         "num_experts_per_tok": 4, "attention_bias": true})"},
    {"llama4", "transformers Llama4TextConfig (models/llama4/configuration_llama4.py, commit 008e574)",
     R"({"vocab_size": 202048, "hidden_size": 5120, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
         "num_hidden_layers": 48, "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
         "max_position_embeddings": 131072, "tie_word_embeddings": false, "num_experts_per_tok": 1,
         "num_local_experts": 16, "interleave_moe_layer_step": 1, "no_rope_layer_interval": 4,
         "attention_chunk_size": 8192, "attention_bias": false})"},
}};

const ClassDefaults* find(std::string_view family) {
    for (const ClassDefaults& d : kDefaults)
        if (d.family == family)
            return &d;
    return nullptr;
}

} // namespace

const nlohmann::json* hfConfigClassDefaults(std::string_view family) {
    static const std::map<std::string, nlohmann::json, std::less<>> parsed = [] {
        std::map<std::string, nlohmann::json, std::less<>> out;
        for (const ClassDefaults& d : kDefaults)
            out.emplace(std::string(d.family), nlohmann::json::parse(d.json));
        return out;
    }();
    const auto it = parsed.find(family);
    return it == parsed.end() ? nullptr : &it->second;
}

std::string_view hfConfigClassSource(std::string_view family) {
    const ClassDefaults* d = find(family);
    return d ? d->source : std::string_view{};
}

} // namespace napkin
