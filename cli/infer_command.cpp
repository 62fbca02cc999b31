// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/infer_command.h"

#include "cli/config_option.h"
#include "cli/enum_option.h"
#include "cli/gpu_catalog_option.h"
#include "cli/model_options.h"
#include "cli/number_knob_options.h"
#include "cli/number_option.h"
#include "cli/overhead_options.h"
#include "cli/step_time_option.h"
#include "engine/inference/inference_accounting.h"
#include "engine/inference/inference_knobs.h"
#include "engine/inference/inference_warnings.h"
#include "engine/accounting/run_cost.h"
#include "engine/accounting/setup_presets.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/cli_command_line.h"
#include "engine/report/inference_report.h"
#include "engine/report/json_values.h"
#include "engine/steptime/inference_time.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <sstream>

namespace napkin::cli {
namespace {

struct InferOptions {
    ModelOptions model;
    // The serving knobs' texts (inference_knobs.h: flag, help, range), empty where not given.
    std::string context, batch, groupSize, gpus, price;
    std::string prompt, weights, kvCache = "bf16", gpu;
    std::string gpuCatalog, hardwareProfile;
    OverheadOptions overheads;
    bool json = false;
};

std::optional<CheckpointFormat> checkpointFormatOf(const InferOptions& o) {
    const std::optional<HfConfig> config = configOfOptions(o.model.config, o.model.modelPreset);
    return config ? config->checkpointFormat : std::nullopt;
}

// {format, source, description}: which format the weights are priced in and why (docs/cli.md).
nlohmann::json weightsSourceJson(const InferOptions& o, const InferenceInput& in) {
    const std::optional<CheckpointFormat> checkpoint = checkpointFormatOf(o);
    const std::string source = !o.weights.empty() ? "option" : checkpoint ? "checkpoint" : "default";
    nlohmann::json doc = {{"format", std::string(weightFormatName(in.weights))},
                          {"source", source},
                          {"experts_only", in.expertsOnly}};
    doc["checkpoint"] = checkpoint ? nlohmann::json(std::string(weightFormatName(checkpoint->weights)))
                                   : nlohmann::json(nullptr);
    doc["description"] = checkpoint && checkpoint->weights == in.weights
                             ? checkpoint->description
                             : std::string(weightFormatName(in.weights)) +
                                   (checkpoint ? " (chosen over the checkpoint's " +
                                                     std::string(weightFormatName(checkpoint->weights)) + ")"
                                               : "");
    return doc;
}

InferenceInput toInput(const InferOptions& o) {
    InferenceInput in;
    in.model = toModelSpec(o.model);
    if (in.model.kind != ModelKind::transformer)
        throw UsageError("--model: infer accounts transformers only (give --model-preset, a transformer's "
                         "--preset, or --model transformer)");
    // The context defaults to the model's own (--seq, or the preset's).
    in.context = in.model.seq;
    applyNumberKnobOption(inferenceKnob("context"), o.context, in);
    in.prompt = parseOptionalNumberOption("--prompt", o.prompt);
    applyNumberKnobOption(inferenceKnob("batch"), o.batch, in);
    // The weights: --weights, else the checkpoint's own format (its quantization_config), else bf16.
    const std::optional<CheckpointFormat> checkpoint = checkpointFormatOf(o);
    in.weights = !o.weights.empty() ? *weightFormatFromName(o.weights) // CLI11 checked membership
                 : checkpoint       ? checkpoint->weights
                                    : WeightFormat::bf16;
    const bool asCheckpoint = checkpoint && checkpoint->weights == in.weights;
    in.groupSize = asCheckpoint ? checkpoint->groupSize : 128;
    applyNumberKnobOption(inferenceKnob("group_size"), o.groupSize, in);
    in.expertsOnly = asCheckpoint && checkpoint->expertsOnly;
    in.kvCache = *storageTypeFromName(o.kvCache);
    // The GPU: --gpu, else a setup preset's GPU type (its count is a training layout's, not a server's).
    // The memory basis: the preset's (the lecture's datasheet convention), then the options on top.
    const SetupPreset* preset = o.model.preset.empty() ? nullptr : findSetupPreset(o.model.preset);
    if (!o.gpu.empty())
        in.gpu = o.gpu;
    else if (preset)
        in.gpu = preset->input.gpu;
    if (preset)
        in.overheads = preset->input.overheads;
    applyOverheadOptions(o.overheads, in.overheads);
    applyNumberKnobOption(inferenceKnob("gpus"), o.gpus, in);
    applyNumberKnobOption(inferenceKnob("price_per_gpu_hour"), o.price, in);
    return in;
}

// The prefill and decode predicted from --hardware-profile's file (refused, exit 2, when damaged, foreign or
// measured on another device), or from the GPU's published profile.
InferenceTimes inferenceTimesFor(const InferOptions& o, const InferenceInput& input, const GpuSpec& gpu) {
    if (o.hardwareProfile.empty())
        return inferenceTimeFromProfile(input, gpu, nullptr);
    const HardwareProfile profile = readHardwareProfileOption(o.hardwareProfile);
    if (const std::string mismatch = profileDeviceMismatch(profile, gpu); !mismatch.empty())
        throw UsageError("--hardware-profile: device: " + mismatch);
    return inferenceTimeFromProfile(input, gpu, &profile);
}

// "prefill (predicted): 0.22 s, 36,000 tokens/s" with its basis, or why it is not predicted.
std::string predictedText(const char* label, const InferenceTime& t) {
    if (!t.predicted)
        return std::string(label) + " (predicted): not predicted: " + t.whyNot + "\n";
    return std::string(label) + " (predicted): " + formatDuration(t.seconds) + ", " +
           formatNumber(t.tokensPerSecond) + " tokens/s\n    " + t.tokensFormula + "\n    from " + t.basis +
           "\n";
}

std::string inferenceToText(const InferenceInput& in, const GpuSpec& gpu, const InferenceResult& r,
                            const InferenceTimes& times) {
    std::ostringstream s;
    auto line = [&](const std::string& label, const std::string& value, const std::string& formula) {
        s << label << ": " << value << "\n    " << formula << "\n";
    };
    line("weights", formatBytes(r.weightsBytes.value), r.weightsBytes.formula);
    line("KV cache per token", formatBytes(r.kvCacheBytesPerToken.value), r.kvCacheBytesPerToken.formula);
    line("KV cache", formatBytes(r.kvCacheBytes.value, ByteUnits::binary), r.kvCacheBytes.formula);
    s << "memory per GPU (" << gpu.id << ", " << formatBytes(gpu.memoryBytes) << "):\n";
    auto memory = [&](const char* label, const Quantity& q) {
        s << "  " << label << ": " << formatBytes(q.value) << "  (" << q.formula << ")\n";
    };
    memory("weights    ", r.memory.weights);
    memory("KV cache   ", r.memory.kvCache);
    memory("activations", r.memory.activations);
    memory("total      ", r.memory.total);
    s << "  overheads (" << memoryBasisName(r.overheads.basis)
      << " basis): " << formatBytes(r.overheads.totalBytes) << "\n";
    for (const OverheadLine& l : r.overheads.lines)
        s << "    " << l.label << ": " << (l.measured ? formatBytes(l.bytes) : std::string("not measured"))
          << (l.counted ? "" : " (not counted)") << "  (" << l.formula << ")\n";
    s << "  usable: " << formatBytes(r.usableBytes.value) << "  (" << r.usableBytes.formula << ")\n";
    s << "  fits: " << (r.fits ? "yes" : "NO") << "  (" << r.fitsFormula << ")\n";
    line("prefill (roofline lower bound)", formatDuration(r.prefillSeconds.value), r.prefillSeconds.formula);
    s << predictedText("prefill", times.prefill);
    line("decode step (roofline lower bound)", formatDuration(r.decodeSecondsPerToken.value),
         r.decodeSecondsPerToken.formula);
    line("decode tokens per second (roofline upper bound)", formatNumber(r.decodeTokensPerSecond.value),
         r.decodeTokensPerSecond.formula);
    s << predictedText("decode step", times.decode);
    line("arithmetic intensity",
         formatNumber(r.arithmeticIntensity.value) + " FLOP/B (" + r.bound + " bound)",
         r.arithmeticIntensity.formula + "; ridge " + r.ridgeFlopsPerByte.formula);
    line("largest batch that fits", formatNumber(r.maxBatch.value), r.maxBatch.formula);
    line("largest context that fits", formatNumber(r.maxContext.value), r.maxContext.formula);
    RunCostInput price;
    price.pricePerGpuHour = in.pricePerGpuHour;
    if (const auto perMillion = dollarsPerMillionTokens(r.decodeTokensPerSecond.value, in.gpus, price))
        line("cost per million tokens", "$" + formatNumber(perMillion->value), perMillion->formula);
    else
        s << "cost per million tokens: give --price-per-gpu-hour\n";
    return s.str();
}

int execute(const InferOptions& o, std::ostream& out, std::ostream& err) {
    const InferenceInput input = toInput(o);
    const GpuCatalog catalog = catalogWithGpuCatalogOption(o.gpuCatalog);
    std::vector<std::string> warnings; // what the part cannot do, a context past the model's
    if (const GpuSpec* part = catalog.find(input.gpu))
        warnings = inferenceWarnings(input, *part);
    const InputError error = validateInference(input, catalog);
    if (!error.ok())
        throw UsageError("--" + error.field + ": " + error.message);
    const GpuSpec& gpu = *catalog.find(input.gpu);
    const InferenceResult result = accountInference(input, gpu);
    const InferenceTimes times = inferenceTimesFor(o, input, gpu);
    if (o.json) {
        nlohmann::json document = inferenceToJson(input, gpu, result, &times); // its warnings[] as below
        document["weights_format"] = weightsSourceJson(o, input);
        if (!o.model.config.empty()) { // the line reads the same file; the JSON says which keys it used
            const HfConfig config = readConfigOption(o.model.config);
            const CommandModelBase base{
                {"--config", o.model.config}, config.model, config.checkpointFormat.has_value()};
            document["command"] = inferCommandLine(input, &base);
            document["config"] = configJson(o.model.config, config);
        }
        if (!o.gpuCatalog.empty()) // the line names the catalog the GPU came from
            document["command"] = withGpuCatalogOption(document["command"].get<std::string>(), o.gpuCatalog);
        if (!o.hardwareProfile.empty()) // the line names the profile the times came from
            document["command"] = document["command"].get<std::string>() + " --hardware-profile " +
                                  shellQuoted(o.hardwareProfile);
        out << jsonText(document);
    } else {
        for (const std::string& warning : warnings)
            err << "warning: " << warning << "\n";
        const nlohmann::json format = weightsSourceJson(o, input);
        if (format["source"] == "checkpoint")
            out << "weights in the checkpoint's format: " << format["description"].get<std::string>() << "\n";
        out << inferenceToText(input, gpu, result, times);
    }
    return 0;
}

} // namespace

Command addInferCommand(CLI::App& parent) {
    auto options = std::make_shared<InferOptions>();
    CLI::App* sub = parent.add_subcommand(
        "infer", "Memory and speed of serving a transformer: weights, KV cache, prefill and decode");
    InferOptions& o = *options;
    addModelOptions(*sub, o.model);
    addNumberKnobOption(*sub, inferenceKnob("context"), o.context);
    sub->add_option("--prompt", o.prompt, "tokens prefilled per sequence P (default --context)");
    addNumberKnobOption(*sub, inferenceKnob("batch"), o.batch);
    sub->add_option("--weights", o.weights,
                    "weight format (default the checkpoint's quantization_config with --config, else bf16)")
        ->check(CLI::IsMember(enumNames(allWeightFormats(), weightFormatName)));
    addNumberKnobOption(*sub, inferenceKnob("group_size"), o.groupSize);
    sub->add_option("--kv-cache", o.kvCache, "KV cache element type (default bf16)")
        ->check(CLI::IsMember(enumNames(kvCacheTypes(), storageTypeName)));
    sub->add_option("--gpu", o.gpu, "GPU id from the catalog (default H100-SXM, or the --preset's)");
    sub->add_option("--gpu-catalog", o.gpuCatalog, "JSON file of extra GPUs in the catalog's format");
    addNumberKnobOption(*sub, inferenceKnob("gpus"), o.gpus);
    sub->add_option("--hardware-profile", o.hardwareProfile,
                    "hardware profile JSON (napkin-cli calibrate, scripts/calibrate_torch.py) the predicted "
                    "prefill and decode are costed from; default: the GPU's published achievable figures");
    addNumberKnobOption(*sub, inferenceKnob("price_per_gpu_hour"), o.price);
    addOverheadOptions(*sub, o.overheads);
    sub->add_flag("--json", o.json, "print one JSON document");
    return {sub, [options](std::ostream& out, std::ostream& err) { return execute(*options, out, err); }};
}

} // namespace napkin::cli
