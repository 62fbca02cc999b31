// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/cli_command_line.h"

#include "engine/accounting/memory_overhead_knobs.h"
#include "engine/inference/inference_knobs.h"
#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/parallel_layout_knobs.h"
#include "engine/accounting/run_cost_knobs.h"
#include "engine/accounting/setup_presets.h"
#include "engine/accounting/training_knobs.h"
#include "engine/numerics/quantity_format.h"

#include <cmath>
#include <string>
#include <vector>

namespace napkin {
namespace {

/// Words of a command line, each added with its flag.
class CommandWords {
public:
    /// "napkin-cli COMMAND"; an empty command: a fragment of flags, for append().
    explicit CommandWords(std::string_view command)
        : text_(command.empty() ? std::string() : "napkin-cli " + std::string(command)) {}

    void flag(std::string_view name) { text_ += " " + std::string(name); }
    void option(std::string_view name, std::string_view value) {
        text_ += " " + std::string(name) + " " + shellQuoted(value);
    }
    void number(std::string_view name, double value) { option(name, commandNumber(value)); }
    void word(std::string_view value) { text_ += " " + shellQuoted(value); }

    void append(const CommandWords& fragment) { text_ += fragment.text_; }
    std::size_t length() const { return text_.size(); }
    std::string finish() { return text_ + " --json"; }

private:
    std::string text_;
};

// The fields a model of its kind has; the others (the sizes the app keeps for when the kind is switched
// back) play no part in any number, so two models equal here are the same model.
ModelSpec relevant(const ModelSpec& m) {
    ModelSpec r;
    r.kind = m.kind;
    switch (m.kind) {
    case ModelKind::dense:
        r.parameters = m.parameters;
        r.seq = m.seq;
        return r;
    case ModelKind::cruncher:
        r.dim = m.dim;
        r.layers = m.layers;
        return r;
    case ModelKind::linear2:
        r.dim = m.dim;
        r.out = m.out;
        return r;
    case ModelKind::transformer: {
        r = m;
        r.parameters = r.dim = r.out = 0;
        // A per-projection bias equal to `bias` is the same model as one left to follow it.
        const auto follow = [&](std::optional<bool>& own, bool resolved) {
            own = resolved == m.bias ? std::nullopt : std::optional<bool>(resolved);
        };
        follow(r.qkvBias, hasQkvBias(m));
        follow(r.outBias, hasOutBias(m));
        follow(r.mlpBias, hasMlpBias(m));
        follow(r.normBias, hasNormBias(m));
        return r;
    }
    }
    return r;
}

AccountingInput relevant(AccountingInput in) {
    in.model = relevant(in.model);
    if (!hasAdapters(in.fineTuning)) { // the LoRA setting plays no part without adapters
        const FineTuning plain;
        in.fineTuning.rank = plain.rank;
        in.fineTuning.alpha = plain.alpha;
        in.fineTuning.targets = plain.targets;
    }
    if (in.overheads.basis == MemoryBasis::datasheet) // no overhead counts: the other settings do nothing
        in.overheads = datasheetOverheads();
    return in;
}

template <typename Enum>
void enumOption(CommandWords& w, std::string_view name, Enum value, Enum base,
                std::string_view (*spell)(Enum)) {
    if (value != base)
        w.option(name, spell(value));
}

void numberOption(CommandWords& w, std::string_view name, double value, double base) {
    if (value != base)
        w.number(name, value);
}

// The transformer's flags that take `base` (a published model, or GPT-2's defaults) to `m`.
void transformerFlags(CommandWords& w, const ModelSpec& m, const ModelSpec& base, bool sizesRequired) {
    const auto size = [&](std::string_view name, double value, double baseValue) {
        if (sizesRequired || value != baseValue)
            w.number(name, value);
    };
    size("--d-model", m.dModel, base.dModel);
    size("--layers", m.layers, base.layers);
    size("--heads", m.heads, base.heads);
    size("--vocab", m.vocab, base.vocab);
    size("--seq", m.seq, base.seq);
    // An explicit --ffn-mult clears the preset's MLP width (model_options.cpp), so the width follows it.
    if (m.ffnMult != base.ffnMult) {
        w.number("--ffn-mult", m.ffnMult);
        if (m.ffnDim != 0)
            w.number("--ffn-dim", m.ffnDim);
    } else if (m.ffnDim != base.ffnDim) {
        if (m.ffnDim != 0)
            w.number("--ffn-dim", m.ffnDim);
        else
            w.number("--ffn-mult", m.ffnMult);
    }
    if (kvHeadCount(m) != kvHeadCount(base) || (m.kvHeads != base.kvHeads && sizesRequired))
        w.number("--kv-heads", kvHeadCount(m));
    enumOption(w, "--mlp", m.mlp, base.mlp, mlpKindName);
    enumOption(w, "--norm", m.norm, base.norm, normKindName);
    enumOption(w, "--bias", m.bias, base.bias, onOffName);
    enumOption(w, "--embeddings", m.embeddings, base.embeddings, embeddingTyingName);
    enumOption(w, "--position", m.position, base.position, positionKindName);
    numberOption(w, "--experts", m.experts, base.experts);
    numberOption(w, "--top-k", m.topK, base.topK);
    enumOption(w, "--dropout", m.dropout, base.dropout, onOffName);
    enumOption(w, "--attention-impl", m.attentionImpl, base.attentionImpl, attentionImplName);
    enumOption(w, "--activations-of", m.activationsOf, base.activationsOf, activationProfileName);
    // Today's families' knobs (model_spec.h). An unset per-projection bias follows --bias: spelled out as the
    // value it resolves to, which gives the same model.
    numberOption(w, "--head-dim", m.headDim, base.headDim);
    const auto biasOption = [&](std::string_view name, const std::optional<bool>& value,
                                const std::optional<bool>& baseValue, bool resolved) {
        if (value != baseValue)
            w.option(name, onOffName(value.value_or(resolved)));
    };
    biasOption("--qkv-bias", m.qkvBias, base.qkvBias, hasQkvBias(m));
    biasOption("--out-bias", m.outBias, base.outBias, hasOutBias(m));
    biasOption("--mlp-bias", m.mlpBias, base.mlpBias, hasMlpBias(m));
    biasOption("--norm-bias", m.normBias, base.normBias, hasNormBias(m));
    enumOption(w, "--norm-placement", m.normPlacement, base.normPlacement, normPlacementName);
    enumOption(w, "--qk-norm", m.qkNorm, base.qkNorm, qkNormName);
    numberOption(w, "--sliding-window", m.slidingWindow, base.slidingWindow);
    if (m.globalEvery != base.globalEvery || m.windowedLayers != base.windowedLayers)
        w.number("--global-every", m.globalEvery); // also clears a base's explicit per-layer pattern
    numberOption(w, "--q-lora-rank", m.qLoraRank, base.qLoraRank);
    numberOption(w, "--kv-lora-rank", m.kvLoraRank, base.kvLoraRank);
    numberOption(w, "--qk-nope-head-dim", m.qkNopeHeadDim, base.qkNopeHeadDim);
    numberOption(w, "--qk-rope-head-dim", m.qkRopeHeadDim, base.qkRopeHeadDim);
    numberOption(w, "--v-head-dim", m.vHeadDim, base.vHeadDim);
    numberOption(w, "--expert-ffn-dim", m.expertFfnDim, base.expertFfnDim);
    numberOption(w, "--shared-ffn-dim", m.sharedFfnDim, base.sharedFfnDim);
    enumOption(w, "--shared-expert-gate", m.sharedExpertGate, base.sharedExpertGate, onOffName);
    numberOption(w, "--dense-layers", m.denseLayers, base.denseLayers);
    enumOption(w, "--router-bias", m.routerBias, base.routerBias, onOffName);
    enumOption(w, "--attention-sinks", m.attentionSinks, base.attentionSinks, onOffName);
}

// Whether flags can take `base` to `m`: an explicit per-layer window pattern has no flag (a config.json
// gives it), so only a base with the same pattern, or one the target drops, will do.
bool reachable(const ModelSpec& m, const ModelSpec& base) {
    return m.windowedLayers.empty() || m.windowedLayers == base.windowedLayers;
}

// The model: by its published name when it has one (and the fields that differ), else by kind and size.
// Returns whether the base named (the caller's config, or a shipped config by --model-preset) has a
// checkpoint format of its own, which napkin-cli infer takes as its --weights default.
bool modelFlags(CommandWords& w, const ModelSpec& model, const CommandModelBase* given) {
    const ModelSpec m = relevant(model);
    if (given) { // the caller's own base (napkin-cli --config FILE), and the flags on top of it
        w.word(given->words.front());
        for (std::size_t i = 1; i < given->words.size(); ++i)
            w.word(given->words[i]);
        transformerFlags(w, m, relevant(given->model), false);
        return given->checkpointFormatted;
    }
    if (m.kind == ModelKind::transformer) {
        // The published or shipped model that needs the fewest flags on top, if any needs fewer than the
        // sizes alone.
        CommandWords best("");
        best.option("--model", modelKindName(m.kind));
        ModelSpec gpt2;
        gpt2.kind = ModelKind::transformer;
        transformerFlags(best, m, gpt2, true);
        bool found = reachable(m, gpt2), bestFormatted = false;
        const auto consider = [&](std::string_view id, const ModelSpec& base, bool formatted) {
            if (!reachable(m, base))
                return;
            CommandWords candidate("");
            candidate.option("--model-preset", id);
            transformerFlags(candidate, m, relevant(base), false);
            if (!found || candidate.length() < best.length()) {
                best = candidate;
                bestFormatted = formatted;
            }
            found = true;
        };
        for (const ModelPreset& p : modelPresets())
            consider(p.id, p.model, false);
        for (const ZooModel& z : zooModels())
            if (const HfConfigResult& read = zooModelConfig(z); read.ok())
                consider(z.id, read.config->model, read.config->checkpointFormat.has_value());
        w.append(best);
        return bestFormatted;
    }
    w.option("--model", modelKindName(m.kind));
    switch (m.kind) {
    case ModelKind::dense:
        w.number("--params", m.parameters);
        numberOption(w, "--seq", m.seq, 1);
        return false;
    case ModelKind::cruncher:
        w.number("--dim", m.dim);
        w.number("--layers", m.layers);
        return false;
    case ModelKind::linear2:
        w.number("--dim", m.dim);
        w.number("--out", m.out);
        return false;
    case ModelKind::transformer:
        return false; // above
    }
    return false;
}

bool isSafeShellCharacter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_-+.,:/=@%").find(c) != std::string_view::npos;
}

} // namespace

std::string shellQuoted(std::string_view text) {
    bool safe = !text.empty();
    for (char c : text)
        safe = safe && isSafeShellCharacter(c);
    if (safe)
        return std::string(text);
    std::string quoted = "'";
    for (char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string commandNumber(double value) {
    // Whole numbers of 1e6 and more as mantissa·10^k ("15e12"), exact: the CLI reads them back bit for bit.
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) >= 1e6 &&
        std::fabs(value) < 1e300) {
        for (int k = 300; k >= 6; --k) {
            const double scale = std::pow(10.0, k);
            const double mantissa = value / scale;
            if (std::fabs(mantissa) >= 1 && mantissa == std::floor(mantissa) && std::fabs(mantissa) < 1e15 &&
                mantissa * scale == value)
                return formatExact(mantissa) + "e" + std::to_string(k);
        }
    }
    std::string text = formatShortest(value); // "1e+11", "0.5", "1.25e-05"
    const std::size_t plus = text.find("e+");
    if (plus != std::string::npos)
        text.erase(plus + 1, 1);
    return text;
}

namespace {

// A table's knobs (number_knob.h) as flags, in its order: an optional one when set, a plain one when it
// differs from the input's default.
template <class Input>
void numberKnobFlag(CommandWords& w, const NumberKnob<Input>& f, const Input& in,
                    const Input& defaults = Input{}) {
    if (const std::optional<double> v = f.get(in); v && (f.isOptional() || *v != *f.get(defaults)))
        w.number(f.flag, *v);
}

template <class Input>
void numberKnobFlags(CommandWords& w, std::span<const NumberKnob<Input>> fields, const Input& in,
                     const Input& defaults = Input{}) {
    for (const NumberKnob<Input>& f : fields)
        numberKnobFlag(w, f, in, defaults);
}

// The overhead ledger's settings, as account and infer both take them.
void overheadFlags(CommandWords& w, const MemoryOverheadSettings& o, const MemoryOverheadSettings& d) {
    enumOption(w, "--memory-basis", o.basis, d.basis, memoryBasisName);
    if (o.basis != MemoryBasis::usable) // the datasheet basis counts no overhead: its settings do nothing
        return;
    if (overheadSwitchesText(o) != overheadSwitchesText(d))
        w.option("--overheads", overheadSwitchesText(o));
    numberKnobFlags(w, memoryOverheadKnobs(), o, d);
}

// The run's price and power (run_cost.h): flags after the setup's, whether it is a preset or not.
void costFlags(CommandWords& w, const RunCostInput& c) {
    numberKnobFlags(w, runCostKnobs(), c);
}

} // namespace

std::string accountCommandLine(const AccountingInput& input, const CommandModelBase* model) {
    CommandWords w("account");
    const AccountingInput in = relevant(input);
    AccountingInput setupOnly = in;
    setupOnly.cost = {};
    for (const SetupPreset& p : setupPresets())
        if (!model && relevant(p.input) == setupOnly) {
            w.option("--preset", p.id);
            costFlags(w, in.cost);
            return w.finish();
        }
    modelFlags(w, in.model, model);
    const AccountingInput d; // the CLI's defaults
    numberKnobFlag(w, trainingKnob("batch"), in, d);
    numberKnobFlag(w, trainingKnob("training_tokens"), in, d);
    enumOption(w, "--precision", in.precision, d.precision, precisionRecipeName);
    if (in.fp32Gradients)
        w.flag("--fp32-grads");
    enumOption(w, "--optimizer", in.optimizer, d.optimizer, optimizerName);
    enumOption(w, "--optimizer-implementation", in.optimizerImplementation, d.optimizerImplementation,
               optimizerImplementationName);
    if (in.gpu != d.gpu)
        w.option("--gpu", in.gpu);
    numberKnobFlag(w, trainingKnob("gpus"), in, d);
    numberKnobFlag(w, trainingKnob("mfu"), in, d);
    numberOption(w, "--zero", in.zeroStage, d.zeroStage);
    enumOption(w, "--recompute", in.recompute, d.recompute, recomputeName);
    enumOption(w, "--attention", in.attention, d.attention, attentionMaskName);
    const std::span layout = parallelLayoutKnobs(); // tp, pp, then --sp, then cp, ep, micro-batches, v
    numberKnobFlags(w, layout.first(2), in.parallel, d.parallel);
    if (in.parallel.sp)
        w.flag("--sp");
    numberKnobFlags(w, layout.subspan(2), in.parallel, d.parallel);
    const ShardingOptions& z = in.sharding;
    if (z.twoGradientCopies)
        w.flag("--two-gradient-copies");
    enumOption(w, "--gathered-layers", z.gathered, d.sharding.gathered, gatheredLayersName);
    numberOption(w, "--prefetch-layers", z.prefetchLayers, d.sharding.prefetchLayers);
    if (z.fp32Reduce)
        w.flag("--fp32-reduce");
    numberOption(w, "--shard-group", z.shardGroup, d.sharding.shardGroup);
    const FineTuning& ft = in.fineTuning;
    enumOption(w, "--finetune", ft.method, d.fineTuning.method, fineTuneMethodName);
    if (hasAdapters(ft)) {
        numberOption(w, "--lora-rank", ft.rank, d.fineTuning.rank);
        numberOption(w, "--lora-alpha", ft.alpha, d.fineTuning.alpha);
        if (ft.targets != d.fineTuning.targets)
            w.option("--lora-targets", loraTargetsText(ft.targets));
    }
    enumOption(w, "--offload", ft.offload, d.fineTuning.offload, offloadName);
    costFlags(w, in.cost);
    overheadFlags(w, in.overheads, d.overheads);
    return w.finish();
}

std::string inferCommandLine(const InferenceInput& in, const CommandModelBase* model) {
    CommandWords w("infer");
    const bool checkpointFormatted = modelFlags(w, in.model, model);
    const InferenceInput d; // the CLI's defaults; the context defaults to the model's, so it is always given
    w.number(inferenceKnob("context").flag, in.context);
    if (in.prompt)
        w.number("--prompt", *in.prompt);
    numberKnobFlag(w, inferenceKnob("batch"), in, d);
    if (checkpointFormatted) // the model's own format would be the default: say which one the page used
        w.option("--weights", weightFormatName(in.weights));
    else
        enumOption(w, "--weights", in.weights, d.weights, weightFormatName);
    const NumberKnob<InferenceInput>& groupSize = inferenceKnob("group_size");
    if (checkpointFormatted && hasGroupScales(in.weights)) // the checkpoint's own would be the default
        w.number(groupSize.flag, in.groupSize);
    else
        numberKnobFlag(w, groupSize, in, d);
    enumOption(w, "--kv-cache", in.kvCache, d.kvCache, storageTypeName);
    if (in.gpu != d.gpu)
        w.option("--gpu", in.gpu);
    numberKnobFlag(w, inferenceKnob("gpus"), in, d);
    numberKnobFlag(w, inferenceKnob("price_per_gpu_hour"), in, d);
    overheadFlags(w, in.overheads, d.overheads);
    return w.finish();
}

std::string withGpuCatalogOption(std::string_view line, std::string_view path) {
    constexpr std::string_view json = " --json";
    const std::size_t at = line.ends_with(json) ? line.size() - json.size() : line.size();
    return std::string(line.substr(0, at)) + " --gpu-catalog " + shellQuoted(path) +
           std::string(line.substr(at));
}

std::string rooflineCommandLine(std::string_view device, ComputeType dtype) {
    CommandWords w("roofline");
    if (device == "cpu")
        w.option("--device", "cpu");
    else
        w.option("--gpu", device);
    w.option("--dtype", computeTypeName(dtype));
    return w.finish();
}

std::string dtypeCommandLine(double value, bool saturate) {
    CommandWords w("dtype");
    w.word(std::isnan(value)   ? std::string("nan")
           : std::isinf(value) ? std::string(value > 0 ? "inf" : "-inf")
                               : formatShortest(value));
    if (saturate)
        w.flag("--saturate");
    return w.finish();
}

std::string tensorCommandLine(std::string_view shape, std::string_view dtype, std::string_view expression) {
    CommandWords w("tensor");
    w.option("--shape", shape);
    w.option("--dtype", dtype);
    w.word(expression);
    return w.finish();
}

namespace {

void benchDevice(CommandWords& w, const BenchCommandDevice& where) {
    if (where.device != "cpu")
        w.option("--device", where.device);
    if (where.cpuBackend)
        w.option("--backend", cpuBackendKindName(*where.cpuBackend));
}

} // namespace

std::string benchMatmulCommandLine(const BenchCommandDevice& where, BenchDtype dtype,
                                   std::string_view sizes) {
    CommandWords w("bench matmul");
    benchDevice(w, where);
    w.option("--dtype", benchDtypeName(dtype));
    w.option("--sizes", sizes);
    return w.finish();
}

std::string benchTrainCommandLine(const BenchCommandDevice& where, const CruncherConfig& config, long steps) {
    CommandWords w("bench train");
    benchDevice(w, where);
    w.number("--dim", static_cast<double>(config.dim));
    w.number("--layers", static_cast<double>(config.layers));
    w.number("--batch", static_cast<double>(config.batch));
    w.number("--steps", static_cast<double>(steps));
    w.option("--optimizer", optimizerName(config.optimizer));
    w.option("--precision", precisionRecipeName(config.precision));
    return w.finish();
}

std::string lessonInitCommandLine(long dim, long layers, std::uint64_t seed) {
    CommandWords w("lesson init");
    w.number("--dim", static_cast<double>(dim));
    w.number("--layers", static_cast<double>(layers));
    w.option("--seed", std::to_string(seed));
    return w.finish();
}

std::string lessonDeterminismCommandLine(long steps, const DeterminismSeeds& seeds) {
    CommandWords w("lesson determinism");
    w.number("--steps", static_cast<double>(steps));
    w.option("--seed-task", std::to_string(seeds.task));
    w.option("--seed-init", std::to_string(seeds.initA));
    w.option("--seed-data", std::to_string(seeds.dataA));
    w.option("--b-seed-init", std::to_string(seeds.initB));
    w.option("--b-seed-data", std::to_string(seeds.dataB));
    return w.finish();
}

std::string lessonDataCommandLine(std::string_view file, std::string_view tokenType, long batch, long context,
                                  long batches, std::uint64_t seed) {
    CommandWords w("lesson data");
    w.option("--file", file);
    w.option("--dtype", tokenType);
    w.number("--batch", static_cast<double>(batch));
    w.number("--context", static_cast<double>(context));
    w.number("--batches", static_cast<double>(batches));
    w.option("--seed", std::to_string(seed));
    return w.finish();
}

std::string lessonMixedPrecisionCommandLine(long steps) {
    CommandWords w("lesson mixed-precision");
    w.number("--steps", static_cast<double>(steps));
    return w.finish();
}

} // namespace napkin
