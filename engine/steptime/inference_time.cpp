// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/steptime/inference_time.h"

#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// The link tensor parallelism over N GPUs runs on: the GPU link when it joins them all, else the network.
struct TpLink {
    std::optional<double> bytesPerSecond;
    std::string text;
};

TpLink tpLink(const GpuSpec& gpu, double N) {
    if (gpu.gpuLinkBytesPerSecondPerDirection && N <= gpu.gpuLinkGpus)
        return {gpu.gpuLinkBytesPerSecondPerDirection,
                gpu.gpuLinkName + ", " + n(*gpu.gpuLinkBytesPerSecondPerDirection) + " B/s per direction"};
    if (gpu.networkBytesPerSecondPerDirection)
        return {gpu.networkBytesPerSecondPerDirection,
                "network, " + n(*gpu.networkBytesPerSecondPerDirection) + " B/s per direction"};
    return {std::nullopt, "the catalog gives no GPU-to-GPU link for the " + gpu.id};
}

// Megatron-LM's forward: an all-reduce of the [T, d] activations after the attention output projection and
// after the MLP's down projection in every layer, and one after the vocabulary-parallel embedding; a ring
// all-reduce sends 2·(N−1)/N of the data (Patarasuk & Yuan 2009). Exposed: nothing in a forward pass
// overlaps them.
std::string addAllReduces(InferenceTime& t, const InferenceInput& in, const GpuSpec& gpu, double tokens) {
    const double N = in.gpus;
    if (N <= 1)
        return {};
    const TpLink link = tpLink(gpu, N);
    if (!link.bytesPerSecond)
        return "the tensor-parallel all-reduces have no link figure (" + link.text + "): not predicted";
    const double e = bytesPerElement(inferenceActivationType(in.weights));
    const double slab = tokens * in.model.dModel * e, count = 2 * in.model.layers + 1;
    StepTimeRow row;
    row.phase = StepTimePhase::communication;
    row.kind = StepTimeKind::communication;
    row.bytes = count * 2 * (N - 1) / N * slab;
    row.seconds = row.bytes / *link.bytesPerSecond;
    if (formulasWanted()) {
        row.name = "tensor-parallel all-reduces (2 per layer + the embedding's)";
        row.formula = "(2·L + 1)·2·(N−1)/N·T·d·" + n(e) + " B / link = " + n(count) + " × 2 × " + n(N - 1) +
                      "/" + n(N) + " × " + n(slab) + " B / " + n(*link.bytesPerSecond) +
                      " B/s = " + n(row.seconds) + " s on " + link.text + ", on the critical path";
    }
    t.ledger.push_back(std::move(row));
    t.notModelled.emplace_back(
        "each all-reduce's latency (only its bytes over the link bandwidth are timed)");
    return {};
}

// GEMMs below the profile's smallest measured m·n·k in `dtype`: they take that shape's rate.
double gemmsBelowProfile(const StepOpList& ops, const HardwareProfile& profile) {
    double smallest = std::numeric_limits<double>::infinity();
    for (const GemmRate& g : profile.gemms)
        if (g.dtype == ops.dtype)
            smallest = std::min(smallest, g.m * g.n * g.k);
    double below = 0;
    for (const StepOp& op : ops.ops)
        if (op.gemm && op.m * op.batch * op.n * op.k < smallest)
            ++below;
    return below;
}

InferenceTime predictPass(const InferenceInput& in, const GpuSpec& gpu, const HardwareProfile& profile,
                          InferencePass pass) {
    InferenceTime t;
    t.basis = profile.source;
    const StepOpList ops = inferenceOps(in, pass);
    if (!ops.whyNot.empty()) {
        t.whyNot = ops.whyNot;
        return t;
    }
    if (fastestGemmFlopsPerSecond(profile, ops.dtype) <= 0) {
        t.whyNot = "the profile (" + profile.source + ") has no " + std::string(computeTypeName(ops.dtype)) +
                   " GEMM rate; give --hardware-profile with one measured in " +
                   std::string(computeTypeName(ops.dtype));
        return t;
    }
    if (memoryBytesPerSecond(profile, ops.activations) <= 0) {
        t.whyNot = "the profile (" + profile.source + ") has no memory bandwidth";
        return t;
    }
    double launches = 0;
    for (const StepOp& op : ops.ops) {
        t.ledger.push_back(costStepOp(op, profile, ops, ops.activations));
        launches += op.launches * op.count;
    }
    if (std::optional<StepTimeRow> overhead = perOpOverheadRow(StepTimePhase::forward, launches, profile))
        t.ledger.push_back(std::move(*overhead));
    const double P = in.prompt ? *in.prompt : in.context;
    const double tokens = pass == InferencePass::prefill ? in.batch * P : in.batch;
    if (std::string why = addAllReduces(t, in, gpu, tokens); !why.empty()) {
        InferenceTime none;
        none.basis = profile.source;
        none.whyNot = std::move(why);
        return none;
    }
    for (const StepTimeRow& row : t.ledger)
        t.seconds += row.seconds;
    t.tokensPerSecond = tokens / t.seconds;
    if (formulasWanted()) {
        t.tokensFormula = (pass == InferencePass::prefill ? "B·P / seconds = " + n(tokens) + " / "
                                                          : "B / seconds = " + n(tokens) + " / ") +
                          n(t.seconds) + " s = " + n(t.tokensPerSecond);
        t.notModelled.insert(t.notModelled.begin(), ops.notModelled.begin(), ops.notModelled.end());
        if (const double below = gemmsBelowProfile(ops, profile); below > 0)
            t.notModelled.push_back(n(below) +
                                    " GEMM row(s) smaller (m·n·k) than any the profile measured in " +
                                    std::string(computeTypeName(ops.dtype)) +
                                    ": they take its smallest shape's rate, so their FLOP time is a lower "
                                    "bound (their bytes, the weights, bound them at small batches)");
    }
    t.predicted = true;
    return t;
}

} // namespace

InferenceTimes predictInferenceTime(const InferenceInput& in, const GpuSpec& gpu,
                                    const HardwareProfile& profile) {
    return {predictPass(in, gpu, profile, InferencePass::prefill),
            predictPass(in, gpu, profile, InferencePass::decode)};
}

InferenceTimes inferenceTimeFromProfile(const InferenceInput& in, const GpuSpec& gpu,
                                        const HardwareProfile* profile) {
    if (profile && profileDeviceMismatch(*profile, gpu).empty())
        return predictInferenceTime(in, gpu, *profile);
    std::string whyNot;
    const std::optional<HardwareProfile> published = defaultProfile(gpu, whyNot);
    if (published)
        return predictInferenceTime(in, gpu, *published);
    InferenceTimes none;
    none.prefill.whyNot = none.decode.whyNot = whyNot;
    return none;
}

} // namespace napkin
