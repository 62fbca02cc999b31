// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/planning/layout_space.h"

#include "engine/hardware/gpu_capabilities.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

namespace napkin {
namespace {

bool isWhole(double v) {
    return std::isfinite(v) && v >= 1 && v == std::floor(v) && v <= 1e15;
}

bool divides(double d, double value) {
    return std::fmod(value, d) == 0;
}

// Shard groups HSDP is offered with: one per node, when ZeRO-3 spans more than a node and nodes tile it.
bool hsdpApplies(double node, double dataParallelGpus) {
    return node > 1 && node < dataParallelGpus && divides(node, dataParallelGpus);
}

// How one pipeline of pp stages holds the layers: v chunks of an even split, or one chunk of an uneven one.
struct Staging {
    double v = 1;
    std::optional<double> first, last;
};

// The stagings of L layers on pp > 1 stages. Even: every v (≤ 64) dividing L/pp. Uneven (plain 1F1B only):
// the first and/or the last stage a layer fewer than the M between, where L + δ_first + δ_last = pp·M, as
// Megatron-LM's --account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split count the
// embedding and the loss as a layer each (Llama 3 405B's 126 layers on 16 stages: 7 + 14 × 8 + 7). At most
// three a pp, and only where pp does not divide L (where it does, M ± a layer divides nothing but on 2
// stages, whose "one fewer on each" is the even split).
std::vector<Staging> stagings(double layers, double pp) {
    std::vector<Staging> out;
    if (divides(pp, layers)) {
        out.push_back({});
        for (const double v : wholeDivisors(layers / pp))
            if (v > 1 && v <= 64)
                out.push_back({v, std::nullopt, std::nullopt});
    }
    constexpr std::pair<double, double> kFewer[] = {{1, 0}, {0, 1}, {1, 1}};
    for (const auto& [fewerFirst, fewerLast] : kFewer) {
        const double M = (layers + fewerFirst + fewerLast) / pp;
        if (!isWhole(M) || M - std::max(fewerFirst, fewerLast) < 1)
            continue;
        if (pp == 2 && fewerFirst == fewerLast) // M − 1 on both: the even split
            continue;
        Staging s;
        if (fewerFirst > 0)
            s.first = M - fewerFirst;
        if (fewerLast > 0)
            s.last = M - fewerLast;
        out.push_back(s);
    }
    return out;
}

} // namespace

std::vector<double> wholeDivisors(double value) {
    std::vector<double> low, high;
    for (double d = 1; d * d <= value; ++d) {
        if (!divides(d, value))
            continue;
        low.push_back(d);
        if (d * d != value)
            high.push_back(value / d);
    }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

LayoutSpace::LayoutSpace(const AccountingInput& base, const GpuSpec& gpu, const PlanConstraints& constraints)
    : m_gpus(base.gpus) {
    if (!isWhole(m_gpus)) {
        m_whyEmpty = "gpus must be a whole number ≥ 1, got " + formatNumber(m_gpus);
        return;
    }
    m_gpusPerNode = constraints.gpusPerNode > 0 ? constraints.gpusPerNode : std::max(1.0, gpu.gpuLinkGpus);
    if (!isWhole(m_gpusPerNode)) {
        m_whyEmpty = "gpus-per-node must be a whole number ≥ 1, got " + formatNumber(m_gpusPerNode);
        return;
    }
    m_globalBatch = constraints.globalBatch;
    if (m_globalBatch == 0) {
        const double dp = dataParallelSize(base.parallel, m_gpus);
        m_globalBatch = base.batch * base.parallel.microbatches * dp;
        if (!isWhole(m_globalBatch)) {
            m_whyEmpty = "the setup's global batch batch · micro-batches · GPUs / (tp·pp·cp) = " +
                         formatNumber(base.batch) + " × " + formatNumber(base.parallel.microbatches) + " × " +
                         formatNumber(dp) + " is not a whole number of sequences; give the global batch";
            return;
        }
    } else if (!isWhole(m_globalBatch)) {
        m_whyEmpty = "global-batch must be a whole number of sequences ≥ 1, got " + formatNumber(m_globalBatch);
        return;
    }
    addShapes(base, gpu);
    if (m_shapes.empty())
        m_whyEmpty = "no data-parallel size GPUs / (tp·pp·cp) divides the global batch of " +
                     formatNumber(m_globalBatch) + " sequences on " + formatNumber(m_gpus) + " GPUs";
}

void LayoutSpace::addShapes(const AccountingInput& base, const GpuSpec& gpu) {
    const ModelSpec& m = base.model;
    const bool transformer = m.kind == ModelKind::transformer;
    const double one = 1;
    const std::vector<double> tps =
        transformer ? wholeDivisors(std::gcd(static_cast<long long>(m_gpus), static_cast<long long>(m_gpusPerNode)))
                    : std::vector<double>{one};
    std::vector<AttentionImpl> kernels{transformer ? AttentionImpl::eager : m.attentionImpl};
    if (transformer && flashAttentionUnavailableReason(gpu).empty())
        kernels.push_back(AttentionImpl::flash);
    std::vector<Recompute> recomputes{Recompute::none};
    if (transformer)
        recomputes = {Recompute::none, Recompute::selective, Recompute::full};
    const std::vector<double> eps =
        transformer && isMixtureOfExperts(m) ? wholeDivisors(m.experts) : std::vector<double>{one};
    for (const double tp : tps) {
        std::vector<double> pps{one};
        if (transformer)
            for (const double pp : wholeDivisors(m_gpus / tp))
                if (pp > 1 && pp <= m.layers)
                    pps.push_back(pp);
        for (const double pp : pps) {
            const std::vector<Staging> splits = pp > 1 ? stagings(m.layers, pp) : std::vector<Staging>(1);
            if (splits.empty())
                continue;
            for (const AttentionImpl kernel : kernels) {
                const std::vector<double> cps =
                    kernel == AttentionImpl::flash ? wholeDivisors(m_gpus / (tp * pp)) : std::vector<double>{one};
                for (const double cp : cps) {
                    const double dp = m_gpus / (tp * pp * cp);
                    if (!divides(dp, m_globalBatch))
                        continue;
                    for (const double ep : eps)
                        for (const double b : wholeDivisors(m_globalBatch / dp))
                            for (const Staging& split : splits)
                                for (const Recompute r : recomputes) {
                                    LayoutChoice c;
                                    c.parallel = {tp, pp, cp, ep, false, m_globalBatch / (dp * b), split.v};
                                    c.parallel.firstStageLayers = split.first;
                                    c.parallel.lastStageLayers = split.last;
                                    c.microBatch = b;
                                    c.recompute = r;
                                    c.attention = kernel;
                                    m_shapes.push_back(c);
                                }
                }
            }
        }
    }
}

std::vector<LayoutChoice> LayoutSpace::variants(const LayoutChoice& shape) const {
    std::vector<LayoutChoice> out;
    const double dataParallelGpus = dataParallelSize(shape.parallel, m_gpus) * shape.parallel.cp;
    for (const bool sp : {false, true}) {
        if (sp && shape.parallel.tp == 1)
            continue;
        for (int zero = 0; zero <= 3; ++zero) {
            LayoutChoice c = shape;
            c.parallel.sp = sp;
            c.zeroStage = zero;
            c.shardGroup = 0;
            out.push_back(c);
            if (zero == 3 && hsdpApplies(m_gpusPerNode, dataParallelGpus)) {
                c.shardGroup = m_gpusPerNode;
                out.push_back(c);
            }
        }
    }
    return out;
}

std::vector<LayoutChoice> LayoutSpace::candidates() const {
    std::vector<LayoutChoice> out;
    for (const LayoutChoice& shape : m_shapes) {
        const std::vector<LayoutChoice> v = variants(shape);
        out.insert(out.end(), v.begin(), v.end());
    }
    return out;
}

std::size_t LayoutSpace::size() const {
    std::size_t total = 0;
    for (const LayoutChoice& shape : m_shapes)
        total += variants(shape).size();
    return total;
}

} // namespace napkin
