// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/gathered_layers.h"

#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

constexpr double kDeepSpeedBytesPerLargestLayerParameter = 4; // stage3.py: largest_layer_memory

} // namespace

GatheredWorkingSet gatheredWorkingSet(const ShardingOptions& o, const ModelSpec& m, double tp,
                                      const GpuParameters& onGpu, const BytesPerParameter& b) {
    GatheredWorkingSet w;
    if (o.gathered == GatheredLayers::none || m.kind != ModelKind::transformer)
        return w;
    if (o.gathered == GatheredLayers::deepspeed) {
        const double largest = std::max({m.vocab * m.dModel, m.dModel * ffnWidth(m),
                                         isMixtureOfExperts(m) ? m.dModel * expertWidth(m) : 0.0}) /
                               tp;
        w.forwardBytes = w.backwardBytes = w.parameterBytes =
            kDeepSpeedBytesPerLargestLayerParameter * largest;
        if (formulasWanted())
            w.formula = "DeepSpeed's estimator: 4 B × largest layer = 4 × max(V·d, d·F" +
                        std::string(isMixtureOfExperts(m) ? ", d·F_expert" : "") + ")" +
                        (tp > 1 ? "/t" : "") + " = 4 × " + n(largest) + " = " + n(w.forwardBytes) + " B";
        return w;
    }
    const double units = std::min(1 + o.prefetchLayers, m.layers);
    const double reduceBytes = o.fp32Reduce ? 4.0 : b.gradients;
    w.parameterBytes = (onGpu.outside + units * onGpu.perLayer) * b.parameters;
    w.forwardBytes = w.parameterBytes;
    w.backwardBytes = w.forwardBytes + onGpu.perLayer * (b.gradients + reduceBytes);
    if (formulasWanted())
        w.formula = "FSDP: root + " + n(units) + " layers gathered = (" + n(onGpu.outside) + " + " + n(units) +
                    " × " + n(onGpu.perLayer) + ") × " + n(b.parameters) + " = " + n(w.forwardBytes) +
                    " B in forward; + the layer's gradients and reduce-scatter input " + n(onGpu.perLayer) +
                    " × (" + n(b.gradients) + " + " + n(reduceBytes) + ") = " + n(w.backwardBytes) +
                    " B in backward";
    return w;
}

} // namespace napkin
