#include "engine/accounting/accounting.h"

#include "engine/numerics/quantity_format.h"

#include <cmath>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

constexpr double kSecondsPerDay = 86400.0;

void addMemory(AccountingResult& r, const AccountingInput& in) {
    const ModelStateMemory states =
        modelStateMemory(r.parameters.total, r.bytesPerParameter, in.zeroStage, in.gpus);
    r.memory.parameters = states.parameters;
    r.memory.gradients = states.gradients;
    r.memory.masterWeights = states.masterWeights;
    r.memory.optimizerState = states.optimizerState;

    const ActivationMemory activations =
        activationMemory(in.model, in.batch, r.precision.activations, in.recompute);
    r.activationsModelled = activations.modelled;
    r.memory.activations = {activations.bytes, activations.formula};

    const double statesBytes = states.parameters.value + states.gradients.value + states.masterWeights.value +
                               states.optimizerState.value;
    const double total = statesBytes + activations.bytes;
    r.memory.total = {total, n(states.parameters.value) + " + " + n(states.gradients.value) + " + " +
                                 n(states.masterWeights.value) + " + " + n(states.optimizerState.value) +
                                 " + " + n(activations.bytes) + " = " + n(total) + " B"};
    r.fits = total <= r.capacityBytes.value;

    const double maxParams = std::floor(r.capacityBytes.value / states.bytesPerParameterPerGpu);
    r.maxParameters = {maxParams, n(r.capacityBytes.value) + " B / (" +
                                      states.bytesPerParameterPerGpuFormula + ") = " + n(maxParams) +
                                      " parameters"};

    if (activations.modelled && activations.bytesPerSample > 0) {
        const double room = r.capacityBytes.value - statesBytes;
        const double maxBatch = room > 0 ? std::floor(room / activations.bytesPerSample) : 0.0;
        r.maxBatch = Quantity{maxBatch, std::string("(").append(n(r.capacityBytes.value)) + " − " +
                                            n(statesBytes) + ") B / " + n(activations.bytesPerSample) +
                                            " B per sample = " + n(maxBatch)};
    }
}

void addTraining(AccountingResult& r, const AccountingInput& in) {
    const StepFlops& f = r.flopsPerStep;
    const double perToken = f.total / f.tokens;
    const double coefficient = perToken / r.parameters.matmulParameters;
    const bool simpleRule = in.model.kind != ModelKind::transformer;
    r.flopsPerToken = {perToken,
                       simpleRule ? n(coefficient) + "·P = " + n(coefficient) + " × " +
                                        n(r.parameters.matmulParameters) + " = " + n(perToken) + " FLOPs"
                                  : n(f.total) + " / " + n(f.tokens) + " tokens = " + n(perToken) + " FLOPs"};
    if (!in.trainingTokens)
        return;
    const double tokens = *in.trainingTokens;
    const double flops = perToken * tokens;
    r.trainingFlops =
        Quantity{flops, simpleRule ? n(coefficient) + " × " + n(r.parameters.matmulParameters) + " × " +
                                         n(tokens) + " = " + n(flops) + " FLOPs"
                                   : n(perToken) + " × " + n(tokens) + " = " + n(flops) + " FLOPs"};
    const double peak = r.densePeakFlopsPerSecond.value;
    const double seconds = flops / (in.gpus * peak * in.mfu);
    r.trainingSeconds = Quantity{seconds, n(flops) + " / (" + n(in.gpus) + " × " + n(peak) + " × " +
                                              n(in.mfu) + ") = " + n(seconds) + " s"};
    const double days = seconds / kSecondsPerDay;
    r.trainingDays = Quantity{days, n(seconds) + " s / 86400 = " + n(days) + " days"};
    r.gpuDays =
        Quantity{days * in.gpus, n(days) + " × " + n(in.gpus) + " = " + n(days * in.gpus) + " GPU-days"};
}

void addNotes(AccountingResult& r, const AccountingInput& in) {
    if (!r.activationsModelled)
        r.notes.emplace_back(
            "activations are not modelled for a dense parameter count; memory is model states only");
    if (in.recompute != Recompute::none && in.model.kind != ModelKind::transformer)
        r.notes.emplace_back("activation recompute is modelled for transformers only; ignored here");
    if (in.model.kind == ModelKind::transformer && r.precision.activations != StorageType::bf16 &&
        r.precision.activations != StorageType::fp16)
        r.notes.emplace_back("Korthikanti et al.'s activation counts assume 16-bit activations; scaled by " +
                             n(bytesPerElement(r.precision.activations) / 2) + " for " +
                             std::string(storageTypeName(r.precision.activations)));
    if (in.gpus > 1)
        r.notes.emplace_back(
            "memory and FLOPs per step are per GPU; each GPU runs its own batch (data parallel)");
}

bool isWhole(double v) {
    return std::isfinite(v) && v == std::floor(v);
}

InputError requireWhole(const char* field, double value, double lo, double hi) {
    if (!isWhole(value) || value < lo || value > hi)
        return {field, "must be a whole number from " + n(lo) + " to " + n(hi) + ", got " + n(value)};
    return {};
}

} // namespace

InputError validate(const AccountingInput& in, const GpuCatalog& catalog) {
    const ModelSpec& m = in.model;
    InputError e;
    switch (m.kind) {
    case ModelKind::dense:
        if (!(m.parameters >= 1 && m.parameters <= 1e15) || !isWhole(m.parameters))
            return {"params", "must be a whole number of parameters from 1 to 1e15, got " + n(m.parameters)};
        if (!(e = requireWhole("seq", m.seq, 1, 1e7)).ok())
            return e;
        break;
    case ModelKind::cruncher:
        if (!(e = requireWhole("dim", m.dim, 1, 1e7)).ok() ||
            !(e = requireWhole("layers", m.layers, 1, 1e5)).ok())
            return e;
        break;
    case ModelKind::linear2:
        if (!(e = requireWhole("dim", m.dim, 1, 1e7)).ok() || !(e = requireWhole("out", m.out, 1, 1e7)).ok())
            return e;
        break;
    case ModelKind::transformer:
        if (!(e = requireWhole("d-model", m.dModel, 1, 1e6)).ok() ||
            !(e = requireWhole("layers", m.layers, 1, 1e5)).ok() ||
            !(e = requireWhole("heads", m.heads, 1, 1e5)).ok() ||
            !(e = requireWhole("vocab", m.vocab, 1, 1e8)).ok() ||
            !(e = requireWhole("seq", m.seq, 1, 1e8)).ok())
            return e;
        if (std::fmod(m.dModel, m.heads) != 0)
            return {"heads", "must divide d-model (" + n(m.dModel) + "), got " + n(m.heads)};
        if (!(m.ffnMult > 0 && m.ffnMult <= 64) || !isWhole(m.ffnMult * m.dModel))
            return {"ffn-mult", "must be in (0, 64] and give a whole MLP width, got " + n(m.ffnMult)};
        break;
    }
    if (countParameters(m).total > 1e15)
        return {m.kind == ModelKind::transformer ? "d-model" : "dim",
                "the model would have " + n(countParameters(m).total) +
                    " parameters; Napkin accounts up to 1e15"};
    if (!(e = requireWhole("batch", in.batch, 1, 1e9)).ok())
        return e;
    if (in.trainingTokens &&
        !(*in.trainingTokens > 0 && *in.trainingTokens <= 1e18 && std::isfinite(*in.trainingTokens)))
        return {"tokens", "must be in (0, 1e18], got " + n(*in.trainingTokens)};
    if (!(e = requireWhole("gpus", in.gpus, 1, 1e7)).ok())
        return e;
    if (!(in.mfu > 0 && in.mfu <= 1))
        return {"mfu", "must be in (0, 1], got " + n(in.mfu)};
    if (in.zeroStage < 0 || in.zeroStage > 3)
        return {"zero", "must be 0, 1, 2 or 3, got " + std::to_string(in.zeroStage)};
    const GpuSpec* gpu = catalog.find(in.gpu);
    if (!gpu)
        return {"gpu", "unknown GPU '" + in.gpu + "'; known: " + catalog.idList()};
    const ComputeType compute = ledgerFor(in.precision, in.fp32Gradients).compute;
    if (densePeakFlopsPerSecond(*gpu, compute) <= 0)
        return {"precision", std::string(precisionRecipeName(in.precision)) + " computes in " +
                                 std::string(computeTypeName(compute)) + ", which the " + gpu->id +
                                 " has no tensor cores for"};
    return {};
}

AccountingResult account(const AccountingInput& in, const GpuSpec& gpu) {
    AccountingResult r;
    r.parameters = countParameters(in.model);
    r.precision = ledgerFor(in.precision, in.fp32Gradients);
    r.bytesPerParameter = bytesPerParameter(r.precision, in.optimizer);
    const double peak = densePeakFlopsPerSecond(gpu, r.precision.compute);
    r.densePeakFlopsPerSecond = {peak, gpu.id + " dense " +
                                           std::string(computeTypeName(r.precision.compute)) +
                                           " peak = " + n(peak) + " FLOP/s"};
    r.capacityBytes = {gpu.memoryBytes, gpu.id + " memory = " + n(gpu.memoryBytes) + " B (" +
                                            formatBytes(gpu.memoryBytes) + ")"};
    r.flopsPerStep = countStepFlops(in.model, in.batch, in.recompute, in.attention);
    addMemory(r, in);
    addTraining(r, in);
    addNotes(r, in);
    return r;
}

} // namespace napkin
