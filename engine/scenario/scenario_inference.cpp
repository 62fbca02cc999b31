// The scenario's "inference" section: the Inference tab's model preset and serving setup, keyed as
// napkin-cli infer's options. The ranges are the controls' own (control_ranges.h).
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_section.h"

#include "engine/accounting/inference_accounting.h"
#include "engine/accounting/model_presets.h"
#include "engine/hardware/gpu_catalog.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace napkin {
namespace scenario_detail {
namespace {

std::optional<std::string> presetFromName(std::string_view name) {
    if (const ModelPreset* p = findModelPreset(name))
        return std::string(p->id);
    return std::nullopt;
}

std::optional<std::string> inferenceGpuFromName(std::string_view name) {
    if (const GpuSpec* gpu = GpuCatalog::builtIn().find(name))
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

void wholeIn(const Section& s, const char* key, double& target, ControlRange range) {
    s.number(key, target, range);
    if (target != std::floor(target))
        s.refuse(key, "must be a whole number");
}

// The Inference tab's own rules (validateInference: a prompt within the context, a group size that
// divides d, GPUs that divide the heads), named by the key the file holds, so a file never loads a
// setup the tab would refuse to compute. A rule about the model itself names the preset.
void refuseInvalidInference(const InferenceInput& in) {
    const InputError e = validateInference(in);
    if (e.ok())
        return;
    static const std::string_view servingKeys[] = {"batch", "context", "prompt",  "group-size",
                                                   "gpus",  "gpu",     "weights", "kv-cache"};
    std::string key = e.field;
    if (std::find(std::begin(servingKeys), std::end(servingKeys), key) == std::end(servingKeys))
        key = "preset";
    std::replace(key.begin(), key.end(), '-', '_');
    throw Refusal{"inference." + key + ": " + e.message};
}

} // namespace

void readInference(const Section& s, InferenceScenario& i) {
    s.expectKeys({"preset", "context", "prompt", "prompt_is_context", "batch", "weights", "group_size",
                  "kv_cache", "gpu", "gpus"});
    InferenceInput& in = i.input;
    s.name("preset", i.preset, presetFromName);
    in.model = findModelPreset(i.preset)->model;
    wholeIn(s, "context", in.context, ranges::inference::context);
    wholeIn(s, "prompt", i.promptShown, ranges::inference::context);
    bool promptIsContext = !in.prompt.has_value();
    s.boolean("prompt_is_context", promptIsContext);
    in.prompt = promptIsContext ? std::nullopt : std::optional<double>(i.promptShown);
    wholeIn(s, "batch", in.batch, ranges::inference::batch);
    s.name("weights", in.weights, weightFormatFromName);
    wholeIn(s, "group_size", in.groupSize, ranges::inference::groupSize);
    s.name("kv_cache", in.kvCache, kvCacheFromName);
    s.name("gpu", in.gpu, inferenceGpuFromName);
    wholeIn(s, "gpus", in.gpus, ranges::inference::gpus);
    refuseInvalidInference(in);
}

json inferenceJson(const InferenceScenario& i) {
    const InferenceInput& in = i.input;
    return {{"preset", i.preset},
            {"context", in.context},
            {"prompt", in.prompt.value_or(i.promptShown)},
            {"prompt_is_context", !in.prompt.has_value()},
            {"batch", in.batch},
            {"weights", std::string(weightFormatName(in.weights))},
            {"group_size", in.groupSize},
            {"kv_cache", std::string(storageTypeName(in.kvCache))},
            {"gpu", in.gpu},
            {"gpus", in.gpus}};
}

} // namespace scenario_detail

InferenceInput freshInferenceInput() {
    InferenceInput in;
    in.model = findModelPreset("llama3-8b")->model;
    in.context = 8192;
    return in;
}

} // namespace napkin
