// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/model_presets.h"

#include "engine/text/ascii_case.h"
#include "engine/text/name_table.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace napkin {
namespace {

ModelSpec gpt2(double d, double layers, double heads, double seq) {
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.dModel = d;
    m.layers = layers;
    m.heads = heads;
    m.vocab = 50257;
    m.seq = seq;
    return m; // every architecture default is GPT-2's
}

// Llama 3 (Meta, "The Llama 3 Herd of Models", 2024, Table 3) and Mixtral: the published config.json.
ModelSpec llama(double d, double layers, double heads, double kvHeads, double ffn, double vocab, double seq) {
    ModelSpec m = withArchitectureFamily(gpt2(d, layers, heads, seq), ArchitectureFamily::llama);
    m.kvHeads = kvHeads;
    m.ffnDim = ffn;
    m.vocab = vocab;
    return m;
}

ModelSpec mixtral() {
    ModelSpec m = llama(4096, 32, 32, 8, 14336, 32000, 32768);
    return withArchitectureFamily(m, ArchitectureFamily::mixtral);
}

const std::array<ModelPreset, 9>& table() {
    static const std::array<ModelPreset, 9> presets{{
        {"gpt2-small", "GPT-2 small", gpt2(768, 12, 12, 1024),
         "Radford et al. 2019, Table 2 and the released config: d 768, 12 layers, 12 heads, V 50257, S 1024"},
        {"gpt2-medium", "GPT-2 medium", gpt2(1024, 24, 16, 1024),
         "Radford et al. 2019, Table 2 and the released config: d 1024, 24 layers, 16 heads"},
        {"gpt2-large", "GPT-2 large", gpt2(1280, 36, 20, 1024),
         "Radford et al. 2019, Table 2 and the released config: d 1280, 36 layers, 20 heads"},
        {"gpt2-xl", "GPT-2 XL", gpt2(1600, 48, 25, 1024),
         "Radford et al. 2019, Table 2 and the released config: d 1600, 48 layers, 25 heads"},
        {"gpt3-175b", "GPT-3 175B", gpt2(12288, 96, 96, 2048),
         "Brown et al. 2020, Table 2.1: d 12288, 96 layers, 96 heads, context 2048; GPT-2's vocabulary "
         "(50257)"},
        {"llama3-8b", "Llama 3 8B", llama(4096, 32, 32, 8, 14336, 128256, 8192),
         "Llama 3 Herd of Models (2024), Table 3, and Meta-Llama-3-8B config.json: d 4096, 32 layers, 32 "
         "heads, "
         "8 KV heads, FFN 14336, V 128256, context 8192"},
        {"llama3-70b", "Llama 3 70B", llama(8192, 80, 64, 8, 28672, 128256, 8192),
         "Llama 3 Herd of Models (2024), Table 3, and Meta-Llama-3-70B config.json: d 8192, 80 layers, 64 "
         "heads, "
         "8 KV heads, FFN 28672, V 128256, context 8192"},
        {"llama3-405b", "Llama 3 405B", llama(16384, 126, 128, 8, 53248, 128256, 8192),
         "Llama 3 Herd of Models (2024), Table 3, and Llama-3.1-405B config.json: d 16384, 126 layers, "
         "128 heads, 8 KV heads, FFN 53248, V 128256; pre-trained at context 8192"},
        {"mixtral-8x7b", "Mixtral 8x7B", mixtral(),
         "Jiang et al. 2024 (Mixtral of Experts), Table 1, and Mixtral-8x7B-v0.1 config.json: d 4096, "
         "32 layers, 32 heads, 8 KV heads, FFN 14336, 8 experts, top-2, V 32000, context 32768"},
    }};
    return presets;
}

constexpr NameTable<ArchitectureFamily, 3> kFamilies{{{ArchitectureFamily::gpt2, "gpt2"},
                                                      {ArchitectureFamily::llama, "llama"},
                                                      {ArchitectureFamily::mixtral, "mixtral"}}};
constexpr auto kAllFamilies = valuesIn(kFamilies);

} // namespace

std::span<const ModelPreset> modelPresets() {
    return table();
}

const ModelPreset* findModelPreset(std::string_view id) {
    for (const ModelPreset& p : table())
        if (equalsIgnoringCase(p.id, id))
            return &p;
    return nullptr;
}

std::string modelPresetIds() {
    std::string ids;
    for (const ModelPreset& p : table())
        ids += (ids.empty() ? "" : ", ") + std::string(p.id);
    return ids;
}

std::string_view architectureFamilyName(ArchitectureFamily family) {
    return nameIn(kFamilies, family);
}
std::optional<ArchitectureFamily> architectureFamilyFromName(std::string_view name) {
    return valueIn(kFamilies, name);
}
std::span<const ArchitectureFamily> allArchitectureFamilies() {
    return kAllFamilies;
}

ModelSpec withArchitectureFamily(ModelSpec m, ArchitectureFamily family) {
    const bool gpt = family == ArchitectureFamily::gpt2;
    m.mlp = gpt ? MlpKind::gelu : MlpKind::swiglu;
    m.norm = gpt ? NormKind::layernorm : NormKind::rmsnorm;
    m.bias = gpt;
    m.embeddings = gpt ? EmbeddingTying::tied : EmbeddingTying::untied;
    m.position = gpt ? PositionKind::learned : PositionKind::rope;
    m.dropout = gpt;
    m.attentionImpl = gpt ? AttentionImpl::eager : AttentionImpl::flash;
    m.experts = family == ArchitectureFamily::mixtral ? 8 : 1;
    m.topK = family == ArchitectureFamily::mixtral ? 2 : 1;
    return m;
}

std::optional<ArchitectureFamily> architectureFamilyOf(const ModelSpec& m) {
    for (ArchitectureFamily family : kAllFamilies)
        if (withArchitectureFamily(m, family) == m)
            return family;
    return std::nullopt;
}

} // namespace napkin
