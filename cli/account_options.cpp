// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/account_options.h"

#include "cli/enum_option.h"
#include "cli/gpu_catalog_option.h"
#include "cli/number_option.h"
#include "engine/accounting/parallel_layout_knobs.h"
#include "engine/accounting/run_cost_knobs.h"
#include "engine/accounting/setup_presets.h"
#include "engine/accounting/training_knobs.h"

#include <CLI/CLI.hpp>

namespace napkin::cli {
namespace {

// Engine field names → the option a user typed.
std::string optionFor(const std::string& field) {
    return "--" + field;
}

void setNumber(double& target, const char* option, const std::string& text) {
    if (!text.empty())
        target = parseNumberOption(option, text);
}

template <typename Enum>
void setEnum(Enum& target, const std::string& text, std::optional<Enum> (*fromName)(std::string_view)) {
    if (!text.empty())
        target = *fromName(text); // CLI11 checked membership
}

void applyLayout(const AccountOptions& o, ParallelLayout& l) {
    applyNumberKnobOptions(parallelLayoutKnobs(), o.layout, l);
    // A preset's sequence parallelism goes with its tensor parallelism: --tp 1 on top of it turns it off.
    l.sp = o.sp || (l.sp && l.tp > 1);
}

// The layout's sizes from their table (parallel_layout_knobs.h), --sp after the pipeline stages.
void addLayoutOptions(CLI::App& sub, AccountOptions& o) {
    const std::span<const NumberKnob<ParallelLayout>> knobs = parallelLayoutKnobs();
    o.layout.texts.assign(knobs.size(), std::string()); // sized once: CLI11 keeps a reference to each
    for (std::size_t i = 0; i < knobs.size(); ++i) {
        addNumberKnobOption(sub, knobs[i], o.layout.texts[i]);
        if (knobs[i].key == "pp")
            sub.add_flag("--sp", o.sp, "sequence parallelism (needs --tp > 1)");
    }
}

} // namespace

AccountingInput toAccountingInput(const AccountOptions& o) {
    AccountingInput in;
    if (!o.model.preset.empty())
        if (const SetupPreset* preset = findSetupPreset(o.model.preset))
            in = preset->input;
    in.model = toModelSpec(o.model); // refuses an unknown preset
    applyLayout(o, in.parallel);
    applyNumberKnobOption(trainingKnob("batch"), o.batch, in);
    applyNumberKnobOption(trainingKnob("training_tokens"), o.tokens, in);
    setEnum(in.precision, o.precision, precisionRecipeFromName);
    in.fp32Gradients = in.fp32Gradients || o.fp32Gradients;
    setEnum(in.optimizer, o.optimizer, optimizerFromName);
    setEnum(in.optimizerImplementation, o.optimizerImplementation, optimizerImplementationFromName);
    if (!o.gpu.empty())
        in.gpu = o.gpu;
    applyNumberKnobOption(trainingKnob("gpus"), o.gpus, in);
    if (o.mfu != "predicted") // the step time's MFU replaces it after the accounting (step_time_option.h)
        applyNumberKnobOption(trainingKnob("mfu"), o.mfu, in);
    if (!o.zero.empty()) {
        const double zero = parseNumberOption("--zero", o.zero);
        if (zero != 0 && zero != 1 && zero != 2 && zero != 3)
            throw UsageError("--zero: must be 0, 1, 2 or 3, got '" + o.zero + "'");
        in.zeroStage = static_cast<int>(zero);
    }
    in.sharding.twoGradientCopies = in.sharding.twoGradientCopies || o.twoGradientCopies;
    setEnum(in.sharding.gathered, o.gatheredLayers, gatheredLayersFromName);
    setNumber(in.sharding.prefetchLayers, "--prefetch-layers", o.prefetchLayers);
    in.sharding.fp32Reduce = in.sharding.fp32Reduce || o.fp32Reduce;
    setNumber(in.sharding.shardGroup, "--shard-group", o.shardGroup);
    setEnum(in.recompute, o.recompute, recomputeFromName);
    setEnum(in.attention, o.attention, attentionMaskFromName);
    applyFineTuneOptions(o.fineTune, in.fineTuning);
    applyOverheadOptions(o.overheads, in.overheads);
    applyNumberKnobOptions(runCostKnobs(), o.cost, in.cost);
    return in;
}

GpuCatalog catalogFor(const AccountOptions& o) {
    return catalogWithGpuCatalogOption(o.gpuCatalog);
}

void checkAccountingInput(const AccountingInput& input, const GpuCatalog& catalog) {
    const InputError error = validate(input, catalog);
    if (!error.ok())
        throw UsageError(optionFor(error.field) + ": " + error.message);
}

void addAccountOptions(CLI::App& sub_, AccountOptions& o) {
    CLI::App* sub = &sub_;
    const std::vector<std::string> recipes = enumNames(allPrecisionRecipes(), precisionRecipeName);
    const std::vector<std::string> optimizers = enumNames(allOptimizers(), optimizerName);
    addModelOptions(*sub, o.model);
    addNumberKnobOption(*sub, trainingKnob("batch"), o.batch);
    addNumberKnobOption(*sub, trainingKnob("training_tokens"), o.tokens);
    sub->add_option("--precision", o.precision, "precision recipe (default fp32)")
        ->check(CLI::IsMember(recipes));
    sub->add_flag("--fp32-grads", o.fp32Gradients,
                  "keep gradients in fp32 under a 16-bit recipe (18 B/param AdamW)");
    sub->add_option("--optimizer", o.optimizer, joinNames(optimizers) + " (default adamw)")
        ->check(CLI::IsMember(optimizers));
    sub->add_option(
           "--optimizer-implementation", o.optimizerImplementation,
           "how torch.optim runs the update, for pytorch-eager's optimizer step: foreach (torch >= 2.0's "
           "default on a GPU), single-tensor (its default on the CPU) or fused (default foreach)")
        ->check(CLI::IsMember(enumNames(allOptimizerImplementations(), optimizerImplementationName)));
    sub->add_option("--gpu", o.gpu, "GPU id from the catalog (default H100-SXM)");
    sub->add_option("--gpu-catalog", o.gpuCatalog, "JSON file of extra GPUs in the catalog's format");
    addNumberKnobOption(*sub, trainingKnob("gpus"), o.gpus);
    addNumberKnobOption(*sub, trainingKnob("mfu"), o.mfu);
    sub->add_option(
        "--hardware-profile", o.hardwareProfile,
        "hardware profile JSON (napkin-cli calibrate, scripts/calibrate-torch.py) the step time is "
        "costed from; default: the GPU's published achievable figures");
    sub->add_flag("--no-dp-overlap", o.noDataParallelOverlap,
                  "step time: data-parallel collectives do not overlap the backward");
    sub->add_option("--zero", o.zero, "ZeRO stage 0..3 (default 0)");
    addLayoutOptions(*sub, o);
    sub->add_option("--recompute", o.recompute, "activation recompute (default none)")
        ->check(CLI::IsMember(enumNames(allRecomputes(), recomputeName)));
    sub->add_option("--attention", o.attention, "attention mask for the score FLOPs (default causal)")
        ->check(CLI::IsMember(enumNames(allAttentionMasks(), attentionMaskName)));
    sub->add_flag("--two-gradient-copies", o.twoGradientCopies,
                  "ZeRO-1/2 as DeepSpeed keeps it: the 16-bit gradients whole plus an fp32 partition");
    sub->add_option("--gathered-layers", o.gatheredLayers,
                    "ZeRO-3's working set: none, fsdp (root + layer + prefetch gathered, reduce buffers) or "
                    "deepspeed (its estimator's 4 B x largest layer) (default none)")
        ->check(CLI::IsMember(enumNames(allGatheredLayers(), gatheredLayersName)));
    sub->add_option("--prefetch-layers", o.prefetchLayers,
                    "layers FSDP gathers ahead of the one computed, 0..8 (default 1)");
    sub->add_flag("--fp32-reduce", o.fp32Reduce,
                  "FSDP2 MixedPrecisionPolicy(reduce_dtype=float32): reduce-scatter in fp32");
    sub->add_option("--shard-group", o.shardGroup,
                    "HSDP: GPUs per shard group (within a node); groups replicate (default 0: all)");
    addFineTuneOptions(*sub, o.fineTune);
    addOverheadOptions(*sub, o.overheads);
    addNumberKnobOptions(*sub, runCostKnobs(), o.cost);
}

} // namespace napkin::cli
