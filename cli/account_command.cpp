#include "cli/account_command.h"

#include "cli/accounting_text.h"
#include "cli/enum_option.h"
#include "cli/number_option.h"
#include "engine/accounting/accounting.h"
#include "engine/accounting/model_presets.h"
#include "engine/report/accounting_report.h"
#include "engine/report/json_values.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

namespace napkin::cli {
namespace {

// Raw option text: numbers are parsed by napkin's own parser so "15T" and "1.5B" work everywhere.
struct AccountOptions {
    std::string model, params, dim, layers, out, dModel, heads, vocab, seq, ffnMult;
    // Architecture (transformer) and parallel layout; empty text: the preset's or GPT-2's default.
    std::string preset, kvHeads, ffnDim, mlp, norm, bias, embeddings, position, experts, topK, dropout,
        attentionImpl;
    std::string tp = "1", pp = "1", cp = "1", ep = "1", microbatches = "1";
    bool sp = false;
    std::string batch = "1", tokens, precision = "fp32", optimizer = "adamw", gpu = "H100-SXM", gpus = "1",
                mfu = "0.5", zero = "0", recompute = "none", attention = "causal", gpuCatalog;
    bool fp32Gradients = false;
    bool json = false;
};

double required(const std::string& option, const std::string& text, const std::string& model) {
    if (text.empty())
        throw UsageError(option + ": required for --model " + model);
    return parseNumberOption(option, text);
}

// Engine field names → the option a user typed.
std::string optionFor(const std::string& field) {
    return "--" + field;
}

// An enum option's text, through its one name table (CLI11 checked membership).
template <typename Enum>
void setEnum(Enum& target, const std::string& text, std::optional<Enum> (*fromName)(std::string_view)) {
    if (!text.empty())
        target = *fromName(text);
}

void setNumber(double& target, const char* option, const std::string& text) {
    if (!text.empty())
        target = parseNumberOption(option, text);
}

// The transformer options: the preset's values, then each flag given on top.
void applyArchitecture(const AccountOptions& o, ModelSpec& m) {
    setNumber(m.kvHeads, "--kv-heads", o.kvHeads);
    if (!o.ffnMult.empty() && o.ffnDim.empty())
        m.ffnDim = 0; // an explicit --ffn-mult replaces a preset's MLP width
    setNumber(m.ffnDim, "--ffn-dim", o.ffnDim);
    setEnum(m.mlp, o.mlp, mlpKindFromName);
    setEnum(m.norm, o.norm, normKindFromName);
    setEnum(m.bias, o.bias, onOffFromName);
    setEnum(m.embeddings, o.embeddings, embeddingTyingFromName);
    setEnum(m.position, o.position, positionKindFromName);
    setNumber(m.experts, "--experts", o.experts);
    setNumber(m.topK, "--top-k", o.topK);
    setEnum(m.dropout, o.dropout, onOffFromName);
    setEnum(m.attentionImpl, o.attentionImpl, attentionImplFromName);
}

// Options that only a transformer has: refused for the other kinds rather than silently ignored.
void refuseTransformerOptions(const AccountOptions& o) {
    const std::pair<const char*, bool> given[] = {{"--kv-heads", !o.kvHeads.empty()},
                                                  {"--ffn-dim", !o.ffnDim.empty()},
                                                  {"--mlp", !o.mlp.empty()},
                                                  {"--norm", !o.norm.empty()},
                                                  {"--bias", !o.bias.empty()},
                                                  {"--embeddings", !o.embeddings.empty()},
                                                  {"--position", !o.position.empty()},
                                                  {"--experts", !o.experts.empty()},
                                                  {"--top-k", !o.topK.empty()},
                                                  {"--dropout", !o.dropout.empty()},
                                                  {"--attention-impl", !o.attentionImpl.empty()}};
    for (const auto& [option, isGiven] : given)
        if (isGiven)
            throw UsageError(std::string(option) + ": applies to --model transformer only, not --model " +
                             o.model);
}

ParallelLayout toLayout(const AccountOptions& o) {
    ParallelLayout l;
    l.tp = parseNumberOption("--tp", o.tp);
    l.pp = parseNumberOption("--pp", o.pp);
    l.cp = parseNumberOption("--cp", o.cp);
    l.ep = parseNumberOption("--ep", o.ep);
    l.sp = o.sp;
    l.microbatches = parseNumberOption("--microbatches", o.microbatches);
    return l;
}

AccountingInput toInput(const AccountOptions& o) {
    AccountingInput in;
    const ModelPreset* preset = nullptr;
    if (!o.preset.empty()) {
        preset = findModelPreset(o.preset);
        if (!preset)
            throw UsageError("--preset: unknown preset '" + o.preset + "'; known: " + modelPresetIds());
        if (!o.model.empty() && o.model != "transformer")
            throw UsageError("--preset: the presets are transformers; drop --model " + o.model);
        in.model = preset->model;
    } else if (o.model.empty()) {
        throw UsageError("--model is required (or give --preset)");
    } else {
        in.model.kind = *modelKindFromName(o.model); // CLI11 checked membership
    }
    switch (in.model.kind) {
    case ModelKind::dense:
        in.model.parameters = required("--params", o.params, o.model);
        in.model.seq = o.seq.empty() ? 1 : parseNumberOption("--seq", o.seq);
        break;
    case ModelKind::cruncher:
        in.model.dim = required("--dim", o.dim, o.model);
        in.model.layers = required("--layers", o.layers, o.model);
        break;
    case ModelKind::linear2:
        in.model.dim = required("--dim", o.dim, o.model);
        in.model.out = required("--out", o.out, o.model);
        break;
    case ModelKind::transformer:
        if (preset) {
            setNumber(in.model.dModel, "--d-model", o.dModel);
            setNumber(in.model.layers, "--layers", o.layers);
            setNumber(in.model.heads, "--heads", o.heads);
            setNumber(in.model.vocab, "--vocab", o.vocab);
            setNumber(in.model.seq, "--seq", o.seq);
        } else {
            in.model.dModel = required("--d-model", o.dModel, o.model);
            in.model.layers = required("--layers", o.layers, o.model);
            in.model.heads = required("--heads", o.heads, o.model);
            in.model.vocab = required("--vocab", o.vocab, o.model);
            in.model.seq = required("--seq", o.seq, o.model);
        }
        if (!o.ffnMult.empty())
            in.model.ffnMult = parseNumberOption("--ffn-mult", o.ffnMult);
        applyArchitecture(o, in.model);
        break;
    }
    if (in.model.kind != ModelKind::transformer)
        refuseTransformerOptions(o);
    in.parallel = toLayout(o);
    in.batch = parseNumberOption("--batch", o.batch);
    in.trainingTokens = parseOptionalNumberOption("--tokens", o.tokens);
    in.precision = *precisionRecipeFromName(o.precision);
    in.fp32Gradients = o.fp32Gradients;
    in.optimizer = *optimizerFromName(o.optimizer);
    in.gpu = o.gpu;
    in.gpus = parseNumberOption("--gpus", o.gpus);
    in.mfu = parseNumberOption("--mfu", o.mfu);
    const double zero = parseNumberOption("--zero", o.zero);
    if (zero != 0 && zero != 1 && zero != 2 && zero != 3)
        throw UsageError("--zero: must be 0, 1, 2 or 3, got '" + o.zero + "'");
    in.zeroStage = static_cast<int>(zero);
    in.recompute = *recomputeFromName(o.recompute);
    in.attention = *attentionMaskFromName(o.attention);
    return in;
}

GpuCatalog catalogFor(const AccountOptions& o) {
    GpuCatalog catalog = GpuCatalog::builtIn();
    if (o.gpuCatalog.empty())
        return catalog;
    std::ifstream file(o.gpuCatalog);
    if (!file)
        throw UsageError("--gpu-catalog: cannot open '" + o.gpuCatalog + "'");
    std::stringstream text;
    text << file.rdbuf();
    const std::string error = catalog.addFromJson(text.str());
    if (!error.empty())
        throw UsageError("--gpu-catalog: " + o.gpuCatalog + ": " + error);
    return catalog;
}

int execute(const AccountOptions& o, std::ostream& out) {
    const AccountingInput input = toInput(o);
    const GpuCatalog catalog = catalogFor(o);
    const InputError error = validate(input, catalog);
    if (!error.ok())
        throw UsageError(optionFor(error.field) + ": " + error.message);
    const GpuSpec& gpu = *catalog.find(input.gpu);
    const AccountingResult result = account(input, gpu);
    if (o.json)
        out << jsonText(accountingToJson(input, gpu, result));
    else
        out << accountingToText(input, gpu, result);
    return 0;
}

} // namespace

Command addAccountCommand(CLI::App& parent) {
    auto options = std::make_shared<AccountOptions>();
    CLI::App* sub = parent.add_subcommand("account", "Memory, FLOPs and time of training a model");
    AccountOptions& o = *options;
    const std::vector<std::string> kinds = enumNames(allModelKinds(), modelKindName);
    const std::vector<std::string> recipes = enumNames(allPrecisionRecipes(), precisionRecipeName);
    const std::vector<std::string> optimizers = enumNames(allOptimizers(), optimizerName);
    sub->add_option("--model", o.model, joinNames(kinds) + " (required unless --preset)")
        ->check(CLI::IsMember(kinds));
    sub->add_option("--preset", o.preset,
                    "a published transformer: " + modelPresetIds() + "; other options override its fields");
    sub->add_option("--params", o.params, "dense: parameter count N (70e9, 70B)");
    sub->add_option("--dim", o.dim, "cruncher, linear2: width D");
    sub->add_option("--layers", o.layers, "cruncher, transformer: number of layers L");
    sub->add_option("--out", o.out, "linear2: output width K");
    sub->add_option("--d-model", o.dModel, "transformer: hidden size d");
    sub->add_option("--heads", o.heads, "transformer: attention heads");
    sub->add_option("--vocab", o.vocab, "transformer: vocabulary size V");
    sub->add_option("--seq", o.seq, "transformer: context length S; dense: tokens per sequence (default 1)");
    sub->add_option("--ffn-mult", o.ffnMult, "transformer: MLP width / d (default 4)");
    sub->add_option("--ffn-dim", o.ffnDim, "transformer: MLP width f (overrides --ffn-mult)");
    sub->add_option("--kv-heads", o.kvHeads,
                    "transformer: key/value heads (grouped-query attention; default heads)");
    sub->add_option("--mlp", o.mlp, "transformer: MLP (default gelu)")
        ->check(CLI::IsMember(enumNames(allMlpKinds(), mlpKindName)));
    sub->add_option("--norm", o.norm, "transformer: normalisation (default layernorm)")
        ->check(CLI::IsMember(enumNames(allNormKinds(), normKindName)));
    const std::vector<std::string> onOff{std::string(onOffName(true)), std::string(onOffName(false))};
    sub->add_option("--bias", o.bias, "transformer: biases in linear layers and LayerNorm (default on)")
        ->check(CLI::IsMember(onOff));
    sub->add_option("--embeddings", o.embeddings,
                    "transformer: output head tied to the token embedding (default tied)")
        ->check(CLI::IsMember(enumNames(allEmbeddingTyings(), embeddingTyingName)));
    sub->add_option("--position", o.position, "transformer: position embeddings (default learned)")
        ->check(CLI::IsMember(enumNames(allPositionKinds(), positionKindName)));
    sub->add_option("--experts", o.experts,
                    "transformer: expert MLPs per layer, mixture of experts (default 1)");
    sub->add_option("--top-k", o.topK, "transformer: experts per token (default 1)");
    sub->add_option("--dropout", o.dropout, "transformer: dropout layers in training (default on)")
        ->check(CLI::IsMember(onOff));
    sub->add_option("--attention-impl", o.attentionImpl, "transformer: attention kernel (default eager)")
        ->check(CLI::IsMember(enumNames(allAttentionImpls(), attentionImplName)));
    sub->add_option("--batch", o.batch, "micro-batch: sequences (examples) per model replica (default 1)");
    sub->add_option("--tokens", o.tokens, "training tokens (15T); enables training FLOPs and time");
    sub->add_option("--precision", o.precision, "precision recipe (default fp32)")
        ->check(CLI::IsMember(recipes));
    sub->add_flag("--fp32-grads", o.fp32Gradients,
                  "keep gradients in fp32 under a 16-bit recipe (18 B/param AdamW)");
    sub->add_option("--optimizer", o.optimizer, joinNames(optimizers) + " (default adamw)")
        ->check(CLI::IsMember(optimizers));
    sub->add_option("--gpu", o.gpu, "GPU id from the catalog (default H100-SXM)");
    sub->add_option("--gpu-catalog", o.gpuCatalog, "JSON file of extra GPUs in the catalog's format");
    sub->add_option("--gpus", o.gpus, "number of GPUs (default 1)");
    sub->add_option("--mfu", o.mfu, "model FLOPs utilisation in (0, 1] (default 0.5)");
    sub->add_option("--zero", o.zero, "ZeRO stage 0..3 (default 0)");
    sub->add_option("--tp", o.tp, "tensor-parallel GPUs (default 1)");
    sub->add_option("--pp", o.pp, "pipeline stages (default 1)");
    sub->add_flag("--sp", o.sp, "sequence parallelism (needs --tp > 1)");
    sub->add_option("--cp", o.cp, "context-parallel GPUs (default 1; needs --attention-impl flash)");
    sub->add_option("--ep", o.ep, "expert-parallel GPUs (default 1; divides --experts)");
    sub->add_option("--microbatches", o.microbatches, "micro-batches per step (default 1)");
    sub->add_option("--recompute", o.recompute, "activation recompute (default none)")
        ->check(CLI::IsMember(enumNames(allRecomputes(), recomputeName)));
    sub->add_option("--attention", o.attention, "attention mask for the score FLOPs (default causal)")
        ->check(CLI::IsMember(enumNames(allAttentionMasks(), attentionMaskName)));
    sub->add_flag("--json", o.json, "print one JSON document");
    return {sub, [options](std::ostream& out, std::ostream&) { return execute(*options, out); }};
}

} // namespace napkin::cli
