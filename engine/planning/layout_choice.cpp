// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/planning/layout_choice.h"

#include "engine/numerics/quantity_format.h"

#include <vector>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// Uneven stages' layers: "first 7, last 7"; "even" when unset.
std::string stageWords(const ParallelLayout& l) {
    if (!hasUnevenStages(l))
        return "even";
    std::string text;
    if (l.firstStageLayers)
        text = "first " + n(*l.firstStageLayers);
    if (l.lastStageLayers)
        text += (text.empty() ? "" : ", ") + std::string("last ") + n(*l.lastStageLayers);
    return text;
}

// The choice's fields as (name, value) words, in the text's order; flags read "on"/"off".
struct Word {
    std::string name, value;
};

std::vector<Word> words(const LayoutChoice& c, double gpus) {
    const ParallelLayout& l = c.parallel;
    return {{"tp", n(l.tp)},
            {"pp", n(l.pp)},
            {"v", n(l.virtualStages)},
            {"stage layers", stageWords(l)},
            {"cp", n(l.cp)},
            {"ep", n(l.ep)},
            {"dp", n(dataParallelSize(l, gpus))},
            {"micro-batch", n(c.microBatch)},
            {"micro-batches", n(l.microbatches)},
            {"sp", l.sp ? "on" : "off"},
            {"recompute", std::string(recomputeName(c.recompute))},
            {"ZeRO", n(c.zeroStage)},
            {"shard group", c.shardGroup > 0 ? n(c.shardGroup) : "all"},
            {"attention", std::string(attentionImplName(c.attention))}};
}

} // namespace

AccountingInput withLayoutChoice(const AccountingInput& base, const LayoutChoice& c) {
    AccountingInput in = base;
    in.parallel = c.parallel;
    in.batch = c.microBatch;
    in.recompute = c.recompute;
    in.zeroStage = c.zeroStage;
    in.model.attentionImpl = c.attention;
    ShardingOptions& s = in.sharding;
    s.shardGroup = c.shardGroup;
    if (c.zeroStage < 1 || c.zeroStage > 2)
        s.twoGradientCopies = false;
    if (c.zeroStage != 3) {
        s.gathered = GatheredLayers::none;
        s.fp32Reduce = false;
    }
    return in;
}

LayoutChoice layoutChoiceOf(const AccountingInput& in) {
    return {in.parallel, in.batch, in.recompute, in.zeroStage, in.sharding.shardGroup, in.model.attentionImpl};
}

std::string layoutChoiceText(const LayoutChoice& c, double gpus) {
    const ParallelLayout& l = c.parallel;
    std::string text = "tp " + n(l.tp) + " · pp " + n(l.pp);
    if (l.virtualStages > 1)
        text += " (v " + n(l.virtualStages) + ")";
    if (hasUnevenStages(l))
        text += " (" + stageWords(l) + " layers)";
    if (l.cp > 1)
        text += " · cp " + n(l.cp);
    if (l.ep > 1)
        text += " · ep " + n(l.ep);
    text += " · dp " + n(dataParallelSize(l, gpus)) + " · micro-batch " + n(c.microBatch) + " × " +
            n(l.microbatches);
    if (l.sp)
        text += " · sp";
    if (c.recompute != Recompute::none)
        text += " · recompute " + std::string(recomputeName(c.recompute));
    text += " · ZeRO-" + n(c.zeroStage);
    if (c.shardGroup > 0)
        text += " (HSDP groups of " + n(c.shardGroup) + ")";
    text += " · " + std::string(attentionImplName(c.attention));
    return text;
}

std::string layoutChoiceChanges(const LayoutChoice& from, const LayoutChoice& to, double gpus) {
    const std::vector<Word> a = words(from, gpus), b = words(to, gpus);
    std::string text;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].value == b[i].value)
            continue;
        if (!text.empty())
            text += ", ";
        text += a[i].name + " " + a[i].value + " → " + b[i].value;
    }
    return text;
}

} // namespace napkin
