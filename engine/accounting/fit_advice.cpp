// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/fit_advice.h"

#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// Accounts a candidate at batch 1; true when it is valid and fits as `check` judges it.
bool fits(AccountingInput candidate, const GpuSpec& gpu, const CandidateFits& check) {
    candidate.batch = 1;
    if (!validateLayout(candidate.parallel, candidate.model, candidate.gpus).ok())
        return false;
    return check(candidate, gpu); // the step's peak at batch 1
}

// The divisors of a whole number of layers (at most 1e5, validated).
std::vector<double> divisorsOf(double value) {
    std::vector<double> divisors;
    const auto whole = static_cast<long>(value);
    for (long d = 1; d <= whole; ++d)
        if (whole % d == 0)
            divisors.push_back(static_cast<double>(d));
    return divisors;
}

// The smallest tp·pp that fits, sequence parallel on, cp and ep kept: on the same GPUs when one does, else
// on dp replicas of that size.
std::string layoutOption(const AccountingInput& in, const GpuSpec& gpu, const CandidateFits& check) {
    const ModelSpec& m = in.model;
    const double dp = dataParallelSize(in.parallel, in.gpus);
    std::vector<ParallelLayout> candidates;
    for (double tp : {1.0, 2.0, 4.0, 8.0}) {
        if (std::fmod(m.heads, tp) != 0 || std::fmod(kvHeadCount(m), tp) != 0)
            continue;
        for (double pp : divisorsOf(m.layers)) {
            ParallelLayout l = in.parallel;
            l.tp = tp;
            l.pp = pp;
            l.sp = tp > 1;
            l.virtualStages = 1; // plain 1F1B: interleaving's divisibility rules need not hold for p
            l.microbatches = std::max(l.microbatches, pp); // 1F1B wants m ≥ p; the first stage then holds p
            if (l != in.parallel)
                candidates.push_back(l);
        }
    }
    // Fewest GPUs per replica first; among equals the larger tp (no pipeline bubble, NVLink traffic).
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const ParallelLayout& a, const ParallelLayout& b) {
                         return a.tp * a.pp != b.tp * b.pp ? a.tp * a.pp < b.tp * b.pp : a.tp > b.tp;
                     });
    // First on the same GPUs, split into fewer replicas; only when no layout fits there, on dp replicas
    // of the larger size (more GPUs in all).
    for (const bool sameGpus : {true, false}) {
        for (const ParallelLayout& l : candidates) {
            AccountingInput c = in;
            c.parallel = l;
            c.sharding.shardGroup = 0; // HSDP's group need not divide the new dp: shard over all of it
            if (validateLayout(l, m, in.gpus).ok() != sameGpus)
                continue;
            if (!sameGpus)
                c.gpus = dp * modelParallelSize(l);
            if (fits(c, gpu, check))
                return layoutText(l) + (l.pp > 1 ? " with ≥ " + n(l.pp) + " micro-batches" : std::string()) +
                       " (" + n(modelParallelSize(l)) + " GPUs per replica, " + n(c.gpus) + " in all)";
        }
    }
    return {};
}

// Dense, cruncher, linear2: the fewest GPUs whose pooled memory holds the states under ZeRO-3.
std::string gpusOption(const AccountingInput& in, const GpuSpec& gpu, const AccountingResult& r,
                       const CandidateFits& check) {
    const double room = modelStateBudgetBytes(r.overheads, in.overheads.fragmentation) -
                        (r.activationsModelled ? r.activations.bytesPerSample : 0.0);
    if (room <= 0)
        return {};
    double gpus = std::max(in.gpus, std::ceil(r.parameters.total * r.bytesPerParameter.total / room));
    AccountingInput c = in;
    c.zeroStage = 3;
    c.sharding.twoGradientCopies = false;
    c.sharding.shardGroup = 0;
    for (int tries = 0; tries < 4; ++tries, ++gpus) { // rounding: the shards are floating-point divisions
        c.gpus = gpus;
        if (gpus <= 1e7 && fits(c, gpu, check))
            return "ZeRO-3 over " + n(gpus) + " GPUs";
    }
    return {};
}

} // namespace

bool fitsAtBatchOne(const AccountingResult& r) {
    return r.maxBatch ? r.maxBatch->value >= 1 : r.fits;
}

std::string fitAdvice(const AccountingInput& in, const GpuSpec& gpu, const AccountingResult& r) {
    return fitAdvice(in, gpu, r, fitsAtBatchOne(r),
                     [](const AccountingInput& c, const GpuSpec& g) { return peakFits(c, g); });
}

std::string fitAdvice(const AccountingInput& in, const GpuSpec& gpu, const AccountingResult& r,
                      bool batchOneFits, const CandidateFits& check) {
    if (batchOneFits)
        return {};
    std::vector<std::string> options;
    const bool transformer = in.model.kind == ModelKind::transformer;
    // pytorch-eager describes one GPU's eager PyTorch: no selective recompute, no tp/pp/cp. Advice it
    // would then refuse contradicts the refusal on the same page.
    const bool eagerProfile = in.model.activationsOf == ActivationProfile::pytorchEager;
    if (transformer) {
        AccountingInput c = in;
        if (!eagerProfile && in.recompute == Recompute::none &&
            in.model.attentionImpl == AttentionImpl::eager) {
            c.recompute = Recompute::selective;
            if (fits(c, gpu, check))
                options.emplace_back("selective recompute");
        }
        if (options.empty() && in.recompute != Recompute::full) {
            c.recompute = Recompute::full;
            if (fits(c, gpu, check))
                options.emplace_back("full recompute");
        }
    }
    if (dataParallelSize(in.parallel, in.gpus) * in.parallel.cp > 1 && in.zeroStage < 3) {
        AccountingInput c = in;
        c.zeroStage = 3;
        c.sharding.twoGradientCopies = false; // DeepSpeed's ZeRO-1/2 buffers: not ZeRO-3's
        if (fits(c, gpu, check))
            options.emplace_back("ZeRO-3");
    }
    const std::string more = !transformer   ? gpusOption(in, gpu, r, check)
                             : eagerProfile ? std::string()
                                            : layoutOption(in, gpu, check);
    if (!more.empty())
        options.push_back(more);
    if (options.empty() && eagerProfile)
        return "even batch 1 does not fit, and neither full recompute nor ZeRO-3 makes it fit; "
               "pytorch-eager describes one GPU's eager PyTorch, so tensor and pipeline parallel layouts "
               "are --activations-of megatron's";
    if (options.empty())
        return transformer
                   ? "even batch 1 does not fit, and neither recompute, ZeRO-3 nor tp ≤ 8 × pp with "
                     "sequence parallelism makes it fit: it needs more GPUs per replica (cp, ep) or a "
                     "smaller model"
                   : "even batch 1 does not fit on " + n(in.gpus) + " GPUs";
    std::string text = "even batch 1 does not fit; it would with ";
    for (std::size_t i = 0; i < options.size(); ++i)
        text += (i == 0 ? "" : "; or ") + options[i];
    return text;
}

} // namespace napkin
