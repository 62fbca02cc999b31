// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model options `account` and `infer` share: --model or --preset, the sizes, and the transformer
// architecture. One parser, so both commands read a model the same way and refuse it with the same words.
#include "engine/models/model_spec.h"

#include <string>

namespace CLI {
class App;
}

namespace napkin::cli {

/// Raw option text: numbers are parsed by napkin's own parser so "15T" and "1.5B" work everywhere.
struct ModelOptions {
    std::string model, params, dim, layers, out, dModel, heads, vocab, seq, ffnMult;
    /// --preset: a whole setup (setup_presets.h), of which this reads the model; --model-preset: a
    /// published model alone (model_presets.h).
    std::string preset, modelPreset;
    // Architecture (transformer); empty text: the preset's or GPT-2's default.
    std::string kvHeads, ffnDim, mlp, norm, bias, embeddings, position, experts, topK, dropout, attentionImpl,
        activationsOf;
    // A Hugging Face config.json (--config), and the knobs of today's families; empty: the file's or
    // the default.
    std::string config, headDim, qkvBias, outBias, mlpBias, normBias, normPlacement, qkNorm, slidingWindow,
        globalEvery, qLoraRank, kvLoraRank, qkNopeHeadDim, qkRopeHeadDim, vHeadDim, expertFfnDim,
        sharedFfnDim, sharedExpertGate, denseLayers, routerBias, attentionSinks;
};

/// Registers --model, --preset, --model-preset, --params, --dim, --layers, --out, --d-model, --heads,
/// --vocab, --seq, --ffn-mult, --ffn-dim, --kv-heads, --mlp, --norm, --bias, --embeddings, --position,
/// --experts, --top-k, --dropout and --attention-impl on `sub`, in that order; then --config and the knobs
/// of today's families (--head-dim, --qkv-bias, ..., --router-bias, --attention-sinks).
void addModelOptions(CLI::App& sub, ModelOptions& o);

/// The model the options describe: the setup preset's, the model preset's (published or from the zoo of
/// config.json files) or the --config file's, then each flag given on top. Throws UsageError naming the
/// option (a missing size, an unknown preset, a transformer option given to another kind).
ModelSpec toModelSpec(const ModelOptions& o);

} // namespace napkin::cli
