// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/deepspeed_estimator.h"

#include "engine/numerics/quantity_format.h"
#include "engine/peers/peer_terms.h"

#include <algorithm>
#include <cmath>

namespace napkin {
namespace {

// The commits the formulas were read at (the stored copies of microsoft/DeepSpeed).
constexpr const char* zero2Source =
    "microsoft/DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py, estimate_zero2_model_states_mem_needs "
    "(commit 022f223); docs/code-docs/source/memory.rst";
constexpr const char* zero3Source =
    "microsoft/DeepSpeed deepspeed/runtime/zero/stage3.py, estimate_zero3_model_states_mem_needs; "
    "docs/code-docs/source/memory.rst (\"largest_layer_memory = 4*largest_layer_params\")";

std::string n(double v) {
    return formatNumber(v);
}

// Parameter counts with every digit, as DeepSpeed's own table prints them ("2851M total params").
std::string count(double v) {
    return formatExact(v);
}

// Python's int() of a non-negative float: toward zero.
double pyInt(double v) {
    return std::trunc(v);
}

double napkinModelStates(const AccountingResult& r) {
    return r.memory.parameters.value + r.memory.gradients.value + r.memory.masterWeights.value +
           r.memory.optimizerState.value;
}

} // namespace

DeepSpeedMemory deepSpeedZero2(double N, double gpusPerNode, double nodes, bool cpuOffload,
                               double bufferFactor, DeepSpeedZero2Formula formula) {
    const double G = gpusPerNode * nodes;
    DeepSpeedMemory m;
    if (cpuOffload) {
        m.gpuBytes = 2 * N;
        m.cpuBytes = pyInt(N * std::max(4 * G, 16.0) * bufferFactor);
        return m;
    }
    m.gpuBytes =
        formula == DeepSpeedZero2Formula::current ? 2 * N + pyInt(18 * N / G) : 4 * N + pyInt(16 * N / G);
    m.cpuBytes = pyInt(N * 4 * gpusPerNode * bufferFactor);
    return m;
}

DeepSpeedMemory deepSpeedZero3(double N, double largest, double gpusPerNode, double nodes, bool cpuOffload,
                               bool cpuOffloadParams, bool zeroInit, double bufferFactor) {
    const double G = gpusPerNode * nodes, perNode = 1 / nodes, gathered = 4 * largest;
    DeepSpeedMemory m;
    if (cpuOffload && cpuOffloadParams) {
        m.gpuBytes = gathered;
        m.cpuBytes = N * (zeroInit ? 18 * perNode : std::max(4 * gpusPerNode, 18 * perNode)) * bufferFactor;
    } else if (cpuOffload) {
        m.gpuBytes = gathered + pyInt(2 * N / G);
        m.cpuBytes = N * (zeroInit ? 16 * perNode : std::max(4 * gpusPerNode, 16 * perNode)) * bufferFactor;
    } else {
        m.gpuBytes = gathered + pyInt(18 * N / G);
        m.cpuBytes = (zeroInit ? largest : N) * 4 * gpusPerNode * bufferFactor;
    }
    m.cpuBytes = pyInt(m.cpuBytes);
    return m;
}

std::optional<double> largestModuleParameters(const ModelSpec& m) {
    switch (m.kind) {
    case ModelKind::dense:
        return std::nullopt;
    case ModelKind::cruncher:
        return m.dim * m.dim;
    case ModelKind::linear2:
        return std::max(m.dim * m.dim, m.dim * m.out);
    case ModelKind::transformer: {
        const double mlpMatrix = m.dModel * ffnWidth(m) + (hasMlpBias(m) ? ffnWidth(m) : 0.0);
        return std::max(m.vocab * m.dModel, mlpMatrix);
    }
    }
    return std::nullopt;
}

PeerEstimate deepSpeedEstimate(const AccountingInput& in, const AccountingResult& r) {
    PeerEstimate e;
    e.peer = in.zeroStage == 3   ? "DeepSpeed ZeRO-3 estimator"
             : in.zeroStage == 2 ? "DeepSpeed ZeRO-2 estimator"
                                 : "DeepSpeed ZeRO-2/3 estimators";
    e.source = in.zeroStage == 3 ? zero3Source : zero2Source;
    e.conventions = {
        "mixed-precision Adam whatever the recipe: 16-bit parameters, fp32 gradients, fp32 master "
        "weights and two fp32 moments (the 18 B of 2·N + 18·N/G)",
        "parameters counted once where shared (model_to_params: tied embeddings once)",
        "model states only: no activations, buffers or allocator overhead (memory.rst: \"in addition to "
        "those you will need enough memory to fit activation calculations\")",
        "G = every GPU: the estimators know no tensor or pipeline parallelism"};
    if (in.zeroStage != 2 && in.zeroStage != 3) {
        e.notApplicable = "DeepSpeed publishes estimators for ZeRO-2 and ZeRO-3 only (stage_1_and_2.py, "
                          "stage3.py); this setup is ZeRO-" +
                          std::to_string(in.zeroStage);
        return e;
    }
    if (!isDataParallelOnly(in.parallel)) {
        e.notApplicable = "the estimators divide by every GPU and take no tensor, pipeline, context or "
                          "expert parallelism; this setup is " +
                          layoutText(in.parallel);
        return e;
    }
    if (hasAdapters(in.fineTuning)) {
        e.notApplicable = "the estimators count every parameter as trained; LoRA/QLoRA train adapters";
        return e;
    }
    const double N = r.parameters.total, G = in.gpus;
    const bool offloadOptimizer = in.fineTuning.offload != Offload::none;
    const bool offloadParams = in.fineTuning.offload == Offload::optimizerAndParams;

    PeerQuantity q;
    q.name = "model states per GPU";
    q.unit = "bytes";
    q.napkin = napkinModelStates(r);
    q.napkinMeaning = "memory_bytes: parameters + gradients + master_weights + optimizer_state";
    const std::string napkinGrad =
        "Napkin: " + std::string(storageTypeName(r.precision.gradients)) + " gradients under the recipe";
    if (in.zeroStage == 2) {
        const DeepSpeedMemory m = deepSpeedZero2(N, G, 1, offloadOptimizer);
        q.peer = m.gpuBytes;
        if (!offloadOptimizer) // a user holding the docs' table holds the earlier formula's number
            e.conventions.push_back(
                "memory.rst's printed tables predate DeepSpeed PR #5099 (commit f4cb866: \"was considering 4 "
                "bytes per model param\"): 4·N + int(16·N/G) = " +
                n(deepSpeedZero2(N, G, 1, false, 1.5, DeepSpeedZero2Formula::beforePr5099).gpuBytes) +
                " B for this setup");
        q.peerFormula = offloadOptimizer ? "2·N = 2 × " + count(N) + " = " + n(q.peer) + " B"
                                         : "2·N + int(18·N/G) = 2 × " + count(N) + " + int(18 × " + count(N) +
                                               "/" + n(G) + ") = " + n(q.peer) + " B";
        const double shard = offloadOptimizer ? 0.0 : N / G;
        q.terms = {
            {"parameters", 2 * N, r.memory.parameters.value,
             "16-bit parameters replicated on every GPU (2·N); Napkin: the recipe's parameter dtype"},
            {"gradients", 6 * shard, r.memory.gradients.value,
             "two gradient partitions, a 16-bit and an fp32 one (2 + 4 of the 18 B, stage_1_and_2.py's "
             "comment); " +
                 napkinGrad},
            {"master weights", 4 * shard, r.memory.masterWeights.value, "fp32 master weights, 4·N/G"},
            {"optimizer state", 8 * shard, r.memory.optimizerState.value,
             "Adam's two fp32 moments, 8·N/G, whatever the optimizer"}};
    } else {
        const std::optional<double> largest = largestModuleParameters(in.model);
        if (!largest) {
            e.notApplicable = "the ZeRO-3 estimator needs the largest layer's parameters, which a dense "
                              "model's N does not give";
            return e;
        }
        const DeepSpeedMemory m = deepSpeedZero3(N, *largest, G, 1, offloadOptimizer, offloadParams, true);
        q.peer = m.gpuBytes;
        const std::string gathered = "4 × " + count(*largest);
        q.peerFormula = offloadParams      ? "4·largest = " + gathered + " = " + n(q.peer) + " B"
                        : offloadOptimizer ? "4·largest + int(2·N/G) = " + gathered + " + int(2 × " +
                                                 count(N) + "/" + n(G) + ") = " + n(q.peer) + " B"
                                           : "4·largest + int(18·N/G) = " + gathered + " + int(18 × " +
                                                 count(N) + "/" + n(G) + ") = " + n(q.peer) + " B";
        const double paramShard = offloadParams ? 0.0 : N / G, stateShard = offloadOptimizer ? 0.0 : N / G;
        q.terms = {
            {"gathered largest layer", 4 * *largest, 0,
             "the largest module's 16-bit parameters gathered whole and its 16-bit gradients computed whole: "
             "4 B × " +
                 count(*largest) + " (memory.rst); Napkin's model states hold no gather buffer"},
            {"parameters", 2 * paramShard, r.memory.parameters.value, "16-bit parameter partition, 2·N/G"},
            {"gradients", 4 * stateShard, r.memory.gradients.value,
             "fp32 gradient partition, 4·N/G; " + napkinGrad},
            {"master weights", 4 * stateShard, r.memory.masterWeights.value, "fp32 master weights, 4·N/G"},
            {"optimizer state", 8 * stateShard, r.memory.optimizerState.value,
             "Adam's two fp32 moments, 8·N/G, whatever the optimizer"}};
    }
    closeTerms(q);
    e.quantities.push_back(std::move(q));
    return e;
}

} // namespace napkin
