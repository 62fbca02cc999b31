// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario's "inference" section: the Inference tab's model (a preset, and the model as shown, which
// an edited architecture or a config.json makes differ from it) and serving setup, keyed as napkin-cli
// infer's options. The serving knobs' ranges are their table's (inference_knobs.h), validation's own.
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_gpus.h"
#include "engine/scenario/scenario_section.h"

#include "engine/inference/inference_accounting.h"
#include "engine/inference/inference_knobs.h"
#include "engine/scenario/number_knobs_json.h"
#include "engine/accounting/preset_groups.h"
#include "engine/hardware/gpu_catalog.h"

#include "engine/text/ascii_case.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace napkin {
namespace scenario_detail {
namespace {

// A published model or a shipped config (the model box's entries), or "" for a model of the user's own.
std::optional<std::string> presetFromName(std::string_view name) {
    if (name.empty())
        return std::string();
    for (const PresetGroup& g : inferencePresetGroups())
        for (const PresetEntry& e : g.entries)
            if (equalsIgnoringCase(e.id, name))
                return std::string(e.id);
    return std::nullopt;
}

std::optional<std::string> inferenceGpuFromName(std::string_view name) {
    if (const GpuSpec* gpu = scenarioGpuCatalog().find(name)) // the file's own GPUs too
        return gpu->id;
    return std::nullopt;
}

std::optional<StorageType> kvCacheFromName(std::string_view name) {
    const std::optional<StorageType> t = storageTypeFromName(name);
    const auto types = kvCacheTypes();
    if (t && std::find(types.begin(), types.end(), *t) != types.end())
        return t;
    return std::nullopt;
}

// The Inference tab's own rules (validateInference: a prompt within the context, a group size that
// divides d, GPUs that divide the heads), named by the key the file holds, so a file never loads a
// setup the tab would refuse to compute. A rule about the model itself names its key under "model".
void refuseInvalidInference(const InferenceInput& in) {
    const InputError e = validateInference(in, scenarioGpuCatalog());
    if (e.ok())
        return;
    static const std::string_view servingKeys[] = {"batch", "context", "prompt",  "group-size",
                                                   "gpus",  "gpu",     "weights", "kv-cache"};
    std::string key = e.field;
    std::replace(key.begin(), key.end(), '-', '_');
    if (std::find(std::begin(servingKeys), std::end(servingKeys), e.field) == std::end(servingKeys))
        key = "model." + key;
    throw Refusal{"inference." + key + ": " + e.message};
}

} // namespace

void readInference(const Section& s, InferenceScenario& i) {
    s.expectKeys({"preset", "model", "context", "prompt", "prompt_is_context", "batch", "weights",
                  "group_size", "kv_cache", "gpu", "gpus", "price_per_gpu_hour", "overheads"});
    InferenceInput& in = i.input;
    // Saved before serving had an overhead ledger (no inference.overheads): the datasheet basis is what
    // the file's "fits" meant, so it opens with every answer it had.
    in.overheads = datasheetOverheads();
    if (const auto o = s.child("overheads"))
        readOverheads(*o, in.overheads);
    s.name("preset", i.preset, presetFromName);
    // The preset's model, and what the file says on top: an older file has no "model" (the preset's).
    const std::optional<Section> model = s.child("model");
    if (i.preset.empty() && !model)
        s.refuse("preset", "is empty (a model of its own), so \"model\" must say what it is");
    in.model = i.preset.empty() ? freshInferenceInput().model : *namedModel(i.preset);
    if (model)
        readTransformerModel(*model, in.model);
    // The serving knobs in their table's range and words (inference_knobs.h); the prompt within the
    // context's range, and validateInference() holds it to the context itself.
    const NumberKnob<InferenceInput>& context = inferenceKnob("context");
    readNumberKnob(s, context, in);
    s.wholeNumber("prompt", i.promptShown, {context.range.low, context.range.high});
    bool promptIsContext = !in.prompt.has_value();
    s.boolean("prompt_is_context", promptIsContext);
    in.prompt = promptIsContext ? std::nullopt : std::optional<double>(i.promptShown);
    readNumberKnob(s, inferenceKnob("batch"), in);
    s.name("weights", in.weights, weightFormatFromName);
    readNumberKnob(s, inferenceKnob("group_size"), in);
    s.name("kv_cache", in.kvCache, kvCacheFromName);
    s.name("gpu", in.gpu, inferenceGpuFromName);
    readNumberKnob(s, inferenceKnob("gpus"), in);
    readNumberKnob(s, inferenceKnob("price_per_gpu_hour"), in); // null: no price (run_cost.h)
    refuseInvalidInference(in);
}

json inferenceJson(const InferenceScenario& i) {
    const InferenceInput& in = i.input;
    return {{"preset", i.preset},
            {"model", transformerModelJson(in.model)},
            {"context", in.context},
            {"prompt", in.prompt.value_or(i.promptShown)},
            {"prompt_is_context", !in.prompt.has_value()},
            {"batch", in.batch},
            {"weights", std::string(weightFormatName(in.weights))},
            {"group_size", in.groupSize},
            {"kv_cache", std::string(storageTypeName(in.kvCache))},
            {"gpu", in.gpu},
            {"gpus", in.gpus},
            {"price_per_gpu_hour", in.pricePerGpuHour ? json(*in.pricePerGpuHour) : json(nullptr)},
            {"overheads", overheadsJson(in.overheads)}};
}

} // namespace scenario_detail

InferenceInput freshInferenceInput() {
    InferenceInput in;
    in.model = *namedModel("llama3-8b");
    in.context = 8192;
    return in;
}

} // namespace napkin
