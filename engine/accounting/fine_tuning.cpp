// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/fine_tuning.h"

#include "engine/text/formula_text.h"
#include "engine/text/name_table.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

constexpr NameTable<FineTuneMethod, 3> kMethodNames{
    {{FineTuneMethod::full, "full"}, {FineTuneMethod::lora, "lora"}, {FineTuneMethod::qlora, "qlora"}}};
constexpr NameTable<Offload, 3> kOffloadNames{{{Offload::none, "none"},
                                               {Offload::optimizer, "optimizer"},
                                               {Offload::optimizerAndParams, "optimizer+params"}}};
constexpr NameTable<LoraTarget, 7> kTargetNames{{{LoraTarget::q, "q"},
                                                 {LoraTarget::k, "k"},
                                                 {LoraTarget::v, "v"},
                                                 {LoraTarget::o, "o"},
                                                 {LoraTarget::gate, "gate"},
                                                 {LoraTarget::up, "up"},
                                                 {LoraTarget::down, "down"}}};
constexpr auto kMethods = valuesIn(kMethodNames);
constexpr auto kOffloads = valuesIn(kOffloadNames);
constexpr auto kTargets = valuesIn(kTargetNames);

bool isWhole(double v) {
    return std::isfinite(v) && v == std::floor(v);
}

// The MLP matrices of one kind of layer: width f, `count` experts of which `active` run per token.
void addMlp(std::vector<AdaptedMatrix>& out, const ModelSpec& m, const FineTuning& ft, const char* where,
            double width, double count, double active, double layers) {
    if (layers <= 0 || width <= 0)
        return;
    const double d = m.dModel;
    const auto add = [&](LoraTarget t, double in, double o) {
        if (targets(ft, t))
            out.push_back({t, where, in, o, count, active, layers});
    };
    if (isGatedMlp(m))
        add(LoraTarget::gate, d, width);
    add(LoraTarget::up, d, width);
    add(LoraTarget::down, width, d);
}

} // namespace

bool hasAdapters(const FineTuning& ft) {
    return ft.method != FineTuneMethod::full;
}

bool isFineTuningSet(const FineTuning& ft) {
    return hasAdapters(ft) || ft.offload != Offload::none || !ft.frozenLayers.empty();
}

bool targets(const FineTuning& ft, LoraTarget target) {
    return std::find(ft.targets.begin(), ft.targets.end(), target) != ft.targets.end();
}

std::vector<AdaptedMatrix> adaptedMatrices(const ModelSpec& m, const FineTuning& ft) {
    std::vector<AdaptedMatrix> out;
    if (!hasAdapters(ft) || m.kind != ModelKind::transformer)
        return out;
    const double d = m.dModel, L = m.layers;
    const double q = m.heads * queryKeyHeadWidth(m), kv = kvHeadCount(m) * queryKeyHeadWidth(m);
    const double values = kvHeadCount(m) * valueHeadWidth(m), attended = m.heads * valueHeadWidth(m);
    const auto attention = [&](LoraTarget t, double in, double o) {
        if (targets(ft, t))
            out.push_back({t, "attention", in, o, 1, 1, L});
    };
    attention(LoraTarget::q, d, q);
    attention(LoraTarget::k, d, kv);
    attention(LoraTarget::v, d, values);
    attention(LoraTarget::o, attended, d);
    if (!isMixtureOfExperts(m)) {
        addMlp(out, m, ft, "MLP", ffnWidth(m), 1, 1, L);
        return out;
    }
    addMlp(out, m, ft, "dense MLP", ffnWidth(m), 1, 1, m.denseLayers);
    addMlp(out, m, ft, "routed experts", expertWidth(m), m.experts, m.topK, moeLayerCount(m));
    addMlp(out, m, ft, "shared expert", m.sharedFfnDim, 1, 1, moeLayerCount(m));
    return out;
}

AdapterCount countAdapters(const ModelSpec& m, const FineTuning& ft) {
    AdapterCount c;
    const double r = ft.rank;
    const bool formulas = formulasWanted(); // the stage memory and the timeline ask per probe: no text
    std::string numbers;
    for (const AdaptedMatrix& a : adaptedMatrices(m, ft)) {
        const double each = r * (a.in + a.out);
        c.parameters += a.layers * a.count * each;
        c.elementsPerToken += a.layers * a.activePerToken * r;
        c.forwardPerToken += a.layers * a.activePerToken * 2 * each;
        if (formulas)
            numbers += (numbers.empty() ? "" : " + ") + n(a.layers) + " × " +
                       (a.count > 1 ? n(a.count) + " × " : std::string()) + n(r) + " × (" + n(a.in) +
                       " + " + n(a.out) + ")";
    }
    c.elementsPerToken /= std::max(m.layers, 1.0);
    if (!formulas)
        return c;
    c.formula = "Σ layers·count·r·(in + out) over " + loraTargetsText(ft.targets) + " = " +
                (numbers.empty() ? std::string("0") : numbers) + " = " + formatExact(c.parameters);
    return c;
}

double nf4BytesPerWeight() {
    return 0.5 + 1.0 / 64 + 4.0 / (64 * 256);
}

std::string_view fineTuneMethodName(FineTuneMethod method) {
    return nameIn(kMethodNames, method);
}

std::optional<FineTuneMethod> fineTuneMethodFromName(std::string_view name) {
    return valueIn(kMethodNames, name);
}

std::span<const FineTuneMethod> allFineTuneMethods() {
    return kMethods;
}

std::string_view offloadName(Offload offload) {
    return nameIn(kOffloadNames, offload);
}

std::optional<Offload> offloadFromName(std::string_view name) {
    return valueIn(kOffloadNames, name);
}

std::span<const Offload> allOffloads() {
    return kOffloads;
}

std::string_view loraTargetName(LoraTarget target) {
    return nameIn(kTargetNames, target);
}

std::optional<std::vector<LoraTarget>> loraTargetsFromText(std::string_view text) {
    if (text == "all-linear")
        return std::vector<LoraTarget>(kTargets.begin(), kTargets.end());
    std::array<bool, kTargets.size()> seen{};
    while (true) {
        const std::size_t comma = text.find(',');
        std::string_view word = text.substr(0, comma);
        if (word.ends_with("_proj")) // PEFT's module names: q_proj, gate_proj, ...
            word.remove_suffix(5);
        const std::optional<LoraTarget> target = valueIn(kTargetNames, word);
        if (!target)
            return std::nullopt;
        const auto i = static_cast<std::size_t>(*target); // the table's order is the enum's
        if (seen[i])
            return std::nullopt;
        seen[i] = true;
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    std::vector<LoraTarget> out;
    for (std::size_t i = 0; i < kTargets.size(); ++i)
        if (seen[i])
            out.push_back(kTargets[i]);
    return out;
}

std::string loraTargetsText(const std::vector<LoraTarget>& targets) {
    if (targets.size() == kTargets.size())
        return "all-linear";
    std::string text;
    for (LoraTarget t : targets)
        text += (text.empty() ? "" : ",") + std::string(loraTargetName(t));
    return text;
}

InputError validateFineTuning(const FineTuning& ft, const ModelSpec& m, bool dataParallelOnly) {
    if (!isFineTuningSet(ft))
        return {};
    if (!dataParallelOnly)
        return {ft.offload != Offload::none && !hasAdapters(ft) ? "offload" : "finetune",
                "fine-tuning and offloading are modelled on data parallelism alone (tp = pp = cp = ep = 1)"};
    if (!ft.frozenLayers.empty()) {
        if (m.kind != ModelKind::cruncher)
            return {"freeze", "frozen layers are modelled for the Cruncher only"};
        if (hasAdapters(ft))
            return {"freeze", "LoRA and QLoRA already freeze every base layer"};
        const std::vector<long>& f = ft.frozenLayers;
        if (!std::is_sorted(f.begin(), f.end()) || std::adjacent_find(f.begin(), f.end()) != f.end() ||
            f.front() < 1 || static_cast<double>(f.back()) > m.layers)
            return {"freeze", "name layers from 1 to " + n(m.layers) + ", each once"};
    }
    if (!hasAdapters(ft))
        return {};
    if (m.kind != ModelKind::transformer)
        return {"finetune", std::string(fineTuneMethodName(ft.method)) +
                                " adapts a transformer's matrices; choose --model transformer or a preset"};
    if (!isWhole(ft.rank) || ft.rank < 1 || ft.rank > 65536)
        return {"lora-rank", "must be a whole number from 1 to 65536, got " + n(ft.rank)};
    if (!(std::isfinite(ft.alpha) && ft.alpha > 0 && ft.alpha <= 1e6))
        return {"lora-alpha", "must be in (0, 1e6], got " + n(ft.alpha)};
    if (ft.targets.empty())
        return {"lora-targets", "name at least one of q, k, v, o, gate, up, down, or all-linear"};
    if (isLatentAttention(m) && (targets(ft, LoraTarget::q) || targets(ft, LoraTarget::k) ||
                                 targets(ft, LoraTarget::v) || targets(ft, LoraTarget::o)))
        return {"lora-targets", "adapters on multi-head latent attention are not modelled; target gate, up, "
                                "down only"};
    const bool allLinear = ft.targets.size() == kTargets.size();
    if (!allLinear && targets(ft, LoraTarget::gate) && !isGatedMlp(m))
        return {"lora-targets", "gate: a GELU MLP has no gate projection (up and down only)"};
    for (const AdaptedMatrix& a : adaptedMatrices(m, ft))
        if (ft.rank > std::min(a.in, a.out))
            return {"lora-rank", "must be at most the smallest adapted side (" + n(std::min(a.in, a.out)) +
                                     ", " + std::string(loraTargetName(a.target)) + "), got " + n(ft.rank)};
    return {};
}

} // namespace napkin
