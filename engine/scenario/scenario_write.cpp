// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a scenario: the current format version only. Keys use the napkin-cli spelling of every name,
// so a scenario file reads like the command line that would compute the same numbers.
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_gpus.h"
#include "engine/scenario/scenario_section.h"

#include "engine/models/model_spec.h"
#include "engine/accounting/parallel_layout_knobs.h"
#include "engine/accounting/precision_recipe.h"
#include "engine/accounting/run_cost_knobs.h"
#include "engine/scenario/number_knobs_json.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace napkin {
namespace {

using json = nlohmann::json;

std::string str(std::string_view s) {
    return std::string(s);
}

json fineTuningJson(const FineTuning& ft) {
    return {{"method", str(fineTuneMethodName(ft.method))},
            {"lora_rank", ft.rank},
            {"lora_alpha", ft.alpha},
            {"lora_targets", loraTargetsText(ft.targets)},
            {"offload", str(offloadName(ft.offload))}};
}

json accountingJson(const AccountingScenario& a) {
    const AccountingInput& in = a.input;
    const ModelSpec& m = in.model;
    json model = {{"kind", str(modelKindName(m.kind))},
                  {"parameters", m.parameters},
                  {"dim", m.dim},
                  {"layers", m.layers},
                  {"out", m.out},
                  {"d_model", m.dModel},
                  {"heads", m.heads},
                  {"vocab", m.vocab},
                  {"seq", m.seq},
                  {"ffn_mult", m.ffnMult}};
    scenario_detail::writeArchitecture(m, model);
    // The layout's sizes by their table (parallel_layout_knobs.h), and its sequence-parallel switch.
    json parallel = scenario_detail::writeNumberKnobs(parallelLayoutKnobs(), in.parallel);
    parallel["sp"] = in.parallel.sp;
    const ShardingOptions& z = in.sharding;
    json sharding = {{"two_gradient_copies", z.twoGradientCopies},
                     {"gathered_layers", str(gatheredLayersName(z.gathered))},
                     {"prefetch_layers", z.prefetchLayers},
                     {"fp32_reduce", z.fp32Reduce},
                     {"shard_group", z.shardGroup}};
    json cost = scenario_detail::writeNumberKnobs(runCostKnobs(),
                                                  in.cost); // null: no price / the default grid (run_cost.h)
    return {{"model", std::move(model)},
            {"batch", in.batch},
            {"count_tokens", in.trainingTokens.has_value()},
            {"training_tokens", in.trainingTokens.value_or(a.tokensShown)},
            {"precision", str(precisionRecipeName(in.precision))},
            {"fp32_gradients", in.fp32Gradients},
            {"optimizer", str(optimizerName(in.optimizer))},
            {"optimizer_implementation", str(optimizerImplementationName(in.optimizerImplementation))},
            {"gpu", in.gpu},
            {"gpus", in.gpus},
            {"mfu", in.mfu},
            {"zero", in.zeroStage},
            {"recompute", str(recomputeName(in.recompute))},
            {"attention", str(attentionMaskName(in.attention))},
            {"units", a.binaryUnits ? "GiB" : "GB"},
            {"preset", a.preset},
            {"parallel", std::move(parallel)},
            {"sharding", std::move(sharding)},
            {"fine_tuning", fineTuningJson(in.fineTuning)},
            {"cost", std::move(cost)},
            {"overheads", scenario_detail::overheadsJson(in.overheads)}};
}

json formatsJson(const FormatsScenario& f) {
    json value;
    if (std::isnan(f.value))
        value = "nan";
    else if (std::isinf(f.value))
        value = f.value > 0 ? "inf" : "-inf";
    else
        value = f.value;
    json pinned = nullptr;
    if (f.pinnedFormat)
        pinned = {{"format", str(floatFormatName(*f.pinnedFormat))}, {"bits", f.pinnedBits}};
    return {{"value", value}, {"saturate", f.saturate}, {"tensor_shape", f.tensorShape}, {"pinned", pinned}};
}

json tensorJson(const TensorScenario& t) {
    return {{"shape", t.shape}, {"dtype", t.dtype}, {"expression", t.expression}, {"step", t.step}};
}

json benchmarksJson(const BenchmarksScenario& b) {
    json dtypes = json::array();
    for (BenchDtype d : b.dtypes)
        dtypes.push_back(str(benchDtypeName(d)));
    json doc = {{"device", b.device},
                {"dtypes", dtypes},
                {"sizes", b.sizes},
                {"dim", b.dim},
                {"layers", b.layers},
                {"batch", b.batch},
                {"steps", b.steps},
                {"optimizer", str(optimizerName(b.optimizer))},
                {"precision", str(precisionRecipeName(b.precision))}};
    if (b.cpuBackend) // unset: the default library, whatever the build opening the file has
        doc["cpuBackend"] = str(cpuBackendKindName(*b.cpuBackend));
    return doc;
}

json trainingJson(const TrainingScenario& t) {
    const auto& d = t.determinism;
    const auto run = [&d](int r) { return json{{"init_seed", d.initSeed[r]}, {"data_seed", d.dataSeed[r]}}; };
    return {{"lesson", str(trainingLessonName(t.lesson))},
            {"init", {{"dim", t.init.dim}, {"layers", t.init.layers}, {"seed", t.init.seed}}},
            {"determinism",
             {{"dataset_seed", d.datasetSeed}, {"steps", d.steps}, {"run_a", run(0)}, {"run_b", run(1)}}},
            {"data",
             {{"path", t.data.path},
              {"token_type", t.data.tokenType},
              {"demo_megabytes", t.data.demoMegabytes},
              {"batch", t.data.batch},
              {"context", t.data.context},
              {"batches", t.data.batches},
              {"seed", t.data.seed}}},
            {"mixed_precision", {{"steps", t.mixedPrecision.steps}}}};
}

} // namespace

AccountingInput freshAccountingInput() {
    AccountingInput in;
    in.model.parameters = 1e9;
    in.model.dim = 4;
    in.model.layers = 2;
    in.model.out = 8;
    in.model.dModel = 768; // GPT-2 small
    in.model.heads = 12;
    in.model.vocab = 50257;
    in.model.seq = 1024;
    in.model.ffnMult = 4;
    in.trainingTokens = 20e9;
    return in;
}

std::string writeScenario(const Scenario& s) {
    // nlohmann's json object keeps keys sorted; "format" and "version" are found by name, not position.
    json root = {{"format", "napkin-scenario"},
                 {"version", kScenarioFormatVersion},
                 {"page", str(scenarioPageName(s.page))},
                 {"accounting", accountingJson(s.accounting)},
                 {"formats", formatsJson(s.formats)},
                 {"tensor", tensorJson(s.tensor)},
                 {"benchmarks", benchmarksJson(s.benchmarks)},
                 {"training", trainingJson(s.training)},
                 {"inference", scenario_detail::inferenceJson(s.inference)},
                 {"roofline", scenario_detail::rooflineJson(s.roofline)}};
    if (!s.gpus.parts.empty()) // the user's own GPUs the pages may name, so the file opens anywhere
        root["gpus"] = scenario_detail::scenarioGpusJson(s.gpus.parts);
    // Text fields come from the GUI as valid UTF-8; replace rather than throw if one ever is not.
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace napkin
