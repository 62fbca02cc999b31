// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/scenario/scenario.h"
#include "engine/scenario/number_knobs_json.h"
#include "engine/scenario/scenario_gpus.h"
#include "engine/scenario/scenario_section.h"

#include "engine/text/json_nesting.h"
#include "engine/text/name_table.h"

#include "engine/accounting/accounting.h"
#include "engine/models/model_spec.h"
#include "engine/accounting/parallel_layout_knobs.h"
#include "engine/accounting/precision_recipe.h"
#include "engine/accounting/run_cost_knobs.h"
#include "engine/accounting/training_knobs.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/numerics/float_rounding.h"
#include "engine/numerics/number_parse.h"
#include "engine/tensor/tensor_layout.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>

namespace napkin {
namespace {

using namespace scenario_detail;

constexpr NameTable<ScenarioPage, 7> kPageNames{{{ScenarioPage::accounting, "accounting"},
                                                 {ScenarioPage::formats, "formats"},
                                                 {ScenarioPage::tensor, "tensor"},
                                                 {ScenarioPage::benchmarks, "benchmarks"},
                                                 {ScenarioPage::training, "training"},
                                                 {ScenarioPage::inference, "inference"},
                                                 {ScenarioPage::roofline, "roofline"}}};

std::optional<bool> unitsFromName(std::string_view name) {
    if (name == "GB")
        return false;
    if (name == "GiB")
        return true;
    return std::nullopt;
}

std::optional<std::string> gpuFromName(std::string_view name) {
    if (const GpuSpec* gpu = scenario_detail::scenarioGpuCatalog().find(name)) // the file's own GPUs too
        return gpu->id;
    return std::nullopt;
}

std::optional<std::string> dtypeFromName(std::string_view name) {
    if (tensorDTypeFromName(name))
        return std::string(name);
    return std::nullopt;
}

// The parallel layout (added within version 2, like the architecture): its sizes by their table
// (parallel_layout_knobs.h), and the sequence-parallel switch.
void readParallel(const Section& p, ParallelLayout& l) {
    readNumberKnobs(p, parallelLayoutKnobs(), l, {"sp"});
    p.boolean("sp", l.sp);
}

// ZeRO/FSDP's layout options (sharding_options.h; added within version 2): absent, every option off.
void readSharding(const Section& z, ShardingOptions& o) {
    z.expectKeys({"two_gradient_copies", "gathered_layers", "prefetch_layers", "fp32_reduce", "shard_group"});
    z.boolean("two_gradient_copies", o.twoGradientCopies);
    z.name("gathered_layers", o.gathered, gatheredLayersFromName);
    z.wholeNumber("prefetch_layers", o.prefetchLayers, ControlRange{0, 8});
    z.boolean("fp32_reduce", o.fp32Reduce);
    z.wholeNumber("shard_group", o.shardGroup, ControlRange{0, 1e7});
}

// Fine-tuning (added within version 2): the method, the LoRA setting and the offload. A bad value is
// refused like any other; the whole setting is checked against the model when the page accounts it.
void readFineTuning(const Section& f, FineTuning& ft) {
    f.expectKeys({"method", "lora_rank", "lora_alpha", "lora_targets", "offload"});
    f.name("method", ft.method, fineTuneMethodFromName);
    f.wholeNumber("lora_rank", ft.rank, ranges::accounting::loraRank);
    f.number("lora_alpha", ft.alpha, ranges::accounting::loraAlpha);
    f.name("lora_targets", ft.targets, loraTargetsFromText);
    f.name("offload", ft.offload, offloadFromName);
}

// The ranges are the controls' own (control_ranges.h), so a loaded file never shows a clamped value.
void readAccountingInput(const Section& s, AccountingScenario& a, bool flatModel) {
    AccountingInput& in = a.input;
    // Saved before the overhead ledger existed (no accounting.overheads): the datasheet basis is what the
    // file's answers meant, so it opens with every number it had.
    in.overheads = datasheetOverheads();
    const std::optional<Section> nested = flatModel ? std::nullopt : s.child("model");
    if (nested || flatModel) {
        const Section& m = flatModel ? s : *nested;
        const char* paramsKey = flatModel ? "params" : "parameters";
        const char* dModelKey = flatModel ? "dModel" : "d_model";
        const char* ffnKey = flatModel ? "ffnMult" : "ffn_mult";
        if (!flatModel) {
            std::vector<std::string_view> known{"kind",    "parameters", "dim",   "layers", "out",
                                                "d_model", "heads",      "vocab", "seq",    "ffn_mult"};
            known.insert(known.end(), architectureKeys().begin(), architectureKeys().end());
            m.expectKeys(known);
        }
        m.name(flatModel ? "model" : "kind", in.model.kind, modelKindFromName);
        m.number(paramsKey, in.model.parameters, ranges::accounting::parameters);
        m.number("dim", in.model.dim, ranges::accounting::dim);
        m.number("layers", in.model.layers, ranges::accounting::layers);
        m.number("out", in.model.out, ranges::accounting::out);
        m.number(dModelKey, in.model.dModel, ranges::accounting::dModel);
        m.number("heads", in.model.heads, ranges::accounting::heads);
        m.number("vocab", in.model.vocab, ranges::accounting::vocab);
        m.number("seq", in.model.seq, ranges::accounting::seq);
        m.number(ffnKey, in.model.ffnMult, ranges::accounting::ffnMult);
        if (!flatModel)
            readArchitecture(m, in.model);
    }
    readNumberKnob(s, trainingKnob("batch"), in); // the batch, GPUs and MFU: their table's (training_knobs.h)
    s.name("precision", in.precision, precisionRecipeFromName);
    s.boolean(flatModel ? "fp32Gradients" : "fp32_gradients", in.fp32Gradients);
    s.name("optimizer", in.optimizer, optimizerFromName);
    if (!flatModel) // version 1 files predate it: torch's GPU default
        s.name("optimizer_implementation", in.optimizerImplementation, optimizerImplementationFromName);
    s.name("gpu", in.gpu, gpuFromName);
    readNumberKnob(s, trainingKnob("gpus"), in);
    readNumberKnob(s, trainingKnob("mfu"), in);
    double zero = in.zeroStage;
    s.number("zero", zero, ranges::accounting::zeroStage);
    if (zero != std::floor(zero))
        s.refuse("zero", "must be 0, 1, 2 or 3");
    in.zeroStage = static_cast<int>(zero);
    s.name("recompute", in.recompute, recomputeFromName);
    s.name("attention", in.attention, attentionMaskFromName);
}

// Version 1: the accounting page only, keyed as the app's settings were ("tokens": 0 meant no totals).
void readAccountingV1(const Section& s, AccountingScenario& a) {
    s.expectKeys({"model",     "params",        "dim",       "layers",  "out",   "dModel",
                  "heads",     "vocab",         "seq",       "ffnMult", "batch", "tokens",
                  "precision", "fp32Gradients", "optimizer", "gpu",     "gpus",  "mfu",
                  "zero",      "recompute",     "attention", "units"});
    readAccountingInput(s, a, true);
    double tokens = a.input.trainingTokens.value_or(0);
    s.number("tokens", tokens, 0, ranges::accounting::trainingTokens.maximum);
    if (s.find("tokens")) {
        if (tokens != 0 && tokens < ranges::accounting::trainingTokens.minimum)
            s.refuse("tokens", "must be 0 (no totals) or from 1e6 to 1e14");
        a.input.trainingTokens = tokens > 0 ? std::optional<double>(tokens) : std::nullopt;
        if (tokens > 0)
            a.tokensShown = tokens;
    }
    double units = a.binaryUnits ? 1 : 0;
    s.number("units", units, 0, 1);
    if (units != std::floor(units))
        s.refuse("units", "must be 0 (GB) or 1 (GiB)");
    a.binaryUnits = units == 1;
}

// The run's price and power (run_cost.h): each knob of its table (run_cost_knobs.h), a number or null
// (not set) for the price and the intensity.
void readRunCost(const Section& s, RunCostInput& c) {
    readNumberKnobs(s, runCostKnobs(), c);
}

void readAccounting(const Section& s, AccountingScenario& a) {
    s.expectKeys({"model",     "batch",          "count_tokens", "training_tokens",
                  "precision", "fp32_gradients", "optimizer",    "optimizer_implementation",
                  "gpu",       "gpus",           "mfu",          "zero",
                  "recompute", "attention",      "units",        "preset",
                  "parallel",  "sharding",       "fine_tuning",  "cost",
                  "overheads"});
    readAccountingInput(s, a, false);
    if (const auto o = s.child("overheads"))
        readOverheads(*o, a.input.overheads);
    if (const auto p = s.child("parallel"))
        readParallel(*p, a.input.parallel);
    if (const auto z = s.child("sharding"))
        readSharding(*z, a.input.sharding);
    if (const auto f = s.child("fine_tuning"))
        readFineTuning(*f, a.input.fineTuning);
    if (const auto c = s.child("cost"))
        readRunCost(*c, a.input.cost);
    bool count = a.input.trainingTokens.has_value();
    s.boolean("count_tokens", count);
    // The tokens shown, counted or not (count_tokens says which): a number in the knob's range and words.
    const NumberRange& tokens = trainingKnob("training_tokens").range;
    s.number("training_tokens", a.tokensShown, -std::numeric_limits<double>::max(),
             std::numeric_limits<double>::max());
    if (s.find("training_tokens") && !tokens.contains(a.tokensShown))
        s.refuse("training_tokens", tokens.requirement());
    a.input.trainingTokens = count ? std::optional<double>(a.tokensShown) : std::nullopt;
    s.name("units", a.binaryUnits, unitsFromName);
    s.text("preset", a.preset);
}

void readFormats(const Section& s, FormatsScenario& f) {
    s.expectKeys({"value", "saturate", "tensor_shape", "pinned"});
    if (const json* v = s.find("value")) {
        if (v->is_number()) {
            f.value = v->get<double>();
        } else if (v->is_string()) {
            // inf and NaN have no JSON number; the page's own parser reads them as typed.
            const ParsedNumber parsed = parseFloatValue(v->get_ref<const std::string&>());
            if (!parsed.ok())
                s.refuse("value", parsed.error);
            f.value = parsed.value;
        } else {
            s.refuse("value", "must be a number or a string such as \"inf\"");
        }
    }
    s.boolean("saturate", f.saturate);
    s.text("tensor_shape", f.tensorShape);
    if (const json* v = s.find("pinned"); v && v->is_null()) {
        f.pinnedFormat.reset();
    } else if (const std::optional<Section> pinned = s.child("pinned")) {
        pinned->expectKeys({"format", "bits"});
        if (!pinned->find("format") || !pinned->find("bits"))
            s.refuse("pinned", "needs both \"format\" and \"bits\"");
        FloatFormat format = FloatFormat::fp32;
        pinned->name("format", format, floatFormatFromName);
        long bits = 0;
        pinned->whole("bits", bits, 0, 0xffffffffL);
        f.pinnedFormat = format;
        f.pinnedBits = maskFloatBits(format, static_cast<std::uint32_t>(bits));
        // The page shows the pattern's value as the value typed; a hand-edited file cannot make them
        // disagree.
        f.value = decodeFloat(format, f.pinnedBits);
    }
}

void readTensor(const Section& s, TensorScenario& t) {
    s.expectKeys({"shape", "dtype", "expression", "step"});
    s.text("shape", t.shape);
    s.name("dtype", t.dtype, dtypeFromName);
    s.text("expression", t.expression);
    long step = t.step;
    s.whole("step", step, -1, 1000000);
    t.step = static_cast<int>(step);
}

void readBenchmarks(const Section& s, BenchmarksScenario& b) {
    s.expectKeys({"device", "cpuBackend", "dtypes", "sizes", "dim", "layers", "batch", "steps", "optimizer",
                  "precision"});
    s.text("device", b.device);
    s.name("cpuBackend", b.cpuBackend,
           [](std::string_view n) -> std::optional<std::optional<CpuBackendKind>> {
               if (const auto kind = cpuBackendKindFromName(n))
                   return kind;
               return std::nullopt;
           });
    if (const json* v = s.find("dtypes")) {
        if (!v->is_array())
            s.refuse("dtypes", "must be a list of names");
        std::vector<BenchDtype> dtypes;
        for (const json& item : *v) {
            const auto d =
                item.is_string() ? benchDtypeFromName(item.get_ref<const std::string&>()) : std::nullopt;
            if (!d)
                // Named by its text or its JSON type, never dumped: an item may be nested deep or be long.
                s.refuse("dtypes",
                         item.is_string()
                             ? "unknown type '" + printable(item.get_ref<const std::string&>()) + "'"
                         : item.is_primitive() ? "unknown type " + item.dump()
                                               : "unknown type (an " + std::string(item.type_name()) + ")");
            if (std::find(dtypes.begin(), dtypes.end(), *d) == dtypes.end())
                dtypes.push_back(*d);
        }
        b.dtypes = std::move(dtypes);
    }
    s.text("sizes", b.sizes);
    s.whole("dim", b.dim, ranges::benchmarks::dim);
    s.whole("layers", b.layers, ranges::benchmarks::layers);
    s.whole("batch", b.batch, ranges::benchmarks::batch);
    s.whole("steps", b.steps, ranges::benchmarks::steps);
    s.name("optimizer", b.optimizer, optimizerFromName);
    // The recipes the CPU Cruncher trainers run; another is refused here rather than failing a run later.
    s.name("precision", b.precision, [](std::string_view n) -> std::optional<PrecisionRecipe> {
        const auto r = precisionRecipeFromName(n);
        if (r == PrecisionRecipe::fp32 || r == PrecisionRecipe::mixedBf16)
            return r;
        return std::nullopt;
    });
}

// The accounting page's own rules (validate(): whole counts, heads that tp divides, ...), named by the
// key the file holds, so a file never loads a state the page would refuse to compute.
void refuseInvalidAccounting(const AccountingInput& in) {
    const InputError e = validate(in, scenario_detail::scenarioGpuCatalog());
    if (e.ok())
        return;
    std::string key = e.field; // the CLI's spelling: "d-model", "tp", "tokens"
    std::replace(key.begin(), key.end(), '-', '_');
    static const std::string_view shardingKeys[] = {"two_gradient_copies", "gathered_layers",
                                                    "prefetch_layers", "fp32_reduce", "shard_group"};
    static const std::string_view topKeys[] = {"batch", "precision", "optimizer", "gpu",      "gpus",
                                               "mfu",   "zero",      "recompute", "attention"};
    static const std::string_view fineTuningKeys[] = {"lora_rank", "lora_alpha", "lora_targets", "offload"};
    const auto listed = [&](const auto& keys) {
        return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
    };
    if (key == "tokens")
        key = "training_tokens";
    else if (key == "params")
        key = "model.parameters";
    else if (key == "finetune")
        key = "fine_tuning.method";
    else if (listed(fineTuningKeys))
        key = "fine_tuning." + key;
    else if (key == "sp" || findNumberKnob(parallelLayoutKnobs(), key))
        key = "parallel." + key;
    else if (listed(shardingKeys))
        key = "sharding." + key;
    else if (!listed(topKeys))
        key = "model." + key;
    throw Refusal{"accounting." + key + ": " + e.message};
}

Scenario readScenario(const json& root, int version, std::vector<std::string>& warnings) {
    Scenario scenario;
    const GpuCatalog catalog =
        scenario_detail::readScenarioGpus(root, scenario.gpus.parts); // before any page
    const scenario_detail::ScenarioGpuScope scope(catalog);
    const Section top(root, "", warnings);
    if (version == 1) {
        top.expectKeys({"format", "version", "accounting", "gpus"});
        if (const auto s = top.child("accounting")) {
            readAccountingV1(*s, scenario.accounting);
            refuseInvalidAccounting(scenario.accounting.input);
        }
        return scenario;
    }
    top.expectKeys({"format", "version", "page", "accounting", "formats", "tensor", "benchmarks", "training",
                    "inference", "roofline", "gpus"});
    top.name("page", scenario.page, scenarioPageFromName);
    if (const auto s = top.child("accounting")) {
        readAccounting(*s, scenario.accounting);
        refuseInvalidAccounting(scenario.accounting.input);
    }
    if (const auto s = top.child("formats"))
        readFormats(*s, scenario.formats);
    if (const auto s = top.child("tensor"))
        readTensor(*s, scenario.tensor);
    if (const auto s = top.child("benchmarks"))
        readBenchmarks(*s, scenario.benchmarks);
    if (const auto s = top.child("training"))
        readTraining(*s, scenario.training);
    if (const auto s = top.child("inference"))
        readInference(*s, scenario.inference);
    if (const auto s = top.child("roofline"))
        readRoofline(*s, scenario.roofline);
    return scenario;
}

} // namespace

ScenarioParse parseScenario(std::string_view text) {
    ScenarioParse result;
    if (text.size() > kScenarioMaxBytes) {
        result.error = "the file is larger than 1 MiB; a scenario is a few kilobytes";
        return result;
    }
    if (jsonNestingDepth(text, kScenarioMaxDepth) > kScenarioMaxDepth) {
        result.error =
            "nested deeper than " + std::to_string(kScenarioMaxDepth) + " levels; a scenario nests 4 deep";
        return result;
    }
    std::optional<json> parsed = scenario_detail::parseJsonText(text, result.error);
    if (!parsed)
        return result;
    json& root = *parsed;
    if (!root.is_object()) {
        result.error = "not a Napkin scenario: the file is JSON but not an object";
        return result;
    }
    const auto format = root.find("format");
    if (format == root.end() || !format->is_string() ||
        format->get_ref<const std::string&>() != "napkin-scenario") {
        result.error = "not a Napkin scenario: \"format\" must be \"napkin-scenario\"";
        return result;
    }
    const auto version = root.find("version");
    if (version == root.end() || !version->is_number_integer()) {
        result.error = "\"version\" is missing or not a whole number";
        return result;
    }
    // Above 2^63 − 1 nlohmann holds the number unsigned; read as signed it wrapped to a negative.
    if (version->is_number_unsigned() && version->get<std::uint64_t>() > kScenarioFormatVersion) {
        result.error = "written by a newer Napkin (format version " +
                       std::to_string(version->get<std::uint64_t>()) + "); this one reads versions 1 to " +
                       std::to_string(kScenarioFormatVersion);
        return result;
    }
    const auto v = version->get<long long>();
    if (v < 1) {
        result.error = "\"version\" must be 1 or more, found " + std::to_string(v);
        return result;
    }
    if (v > kScenarioFormatVersion) {
        result.error = "written by a newer Napkin (format version " + std::to_string(v) +
                       "); this one reads versions 1 to " + std::to_string(kScenarioFormatVersion);
        return result;
    }
    result.fileVersion = static_cast<int>(v);
    try {
        result.scenario = readScenario(root, result.fileVersion, result.warnings);
    } catch (const Refusal& refusal) {
        result.error = refusal.message;
        result.warnings.clear();
    } catch (const json::exception& e) { // a type the getters did not expect; should not happen
        result.error = std::string("unexpected content: ") + e.what();
        result.warnings.clear();
    }
    return result;
}

std::string_view scenarioPageName(ScenarioPage page) {
    return nameIn(kPageNames, page);
}

std::optional<ScenarioPage> scenarioPageFromName(std::string_view name) {
    return valueIn(kPageNames, name);
}

} // namespace napkin
