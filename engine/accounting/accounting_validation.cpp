// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/accounting.h"

#include "engine/accounting/finite_answers.h"
#include "engine/accounting/pytorch_eager_ledger.h"
#include "engine/accounting/training_knobs.h"
#include "engine/hardware/gpu_capabilities.h"
#include "engine/numerics/quantity_format.h"

#include <cmath>

// validate(): every input refused before the accounting runs, named by the field a user typed it in.
namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

bool isWhole(double v) {
    return std::isfinite(v) && v == std::floor(v);
}

InputError requireWhole(const char* field, double value, double lo, double hi) {
    if (!isWhole(value) || value < lo || value > hi)
        return {field, "must be a whole number from " + n(lo) + " to " + n(hi) + ", got " + n(value)};
    return {};
}

// The sharding options (sharding_options.h) against the rest of the setup.
InputError validateShardingFor(const AccountingInput& in) {
    const ShardingOptions& o = in.sharding;
    if (o == ShardingOptions{})
        return {};
    const bool masterWeights = ledgerFor(in.precision, in.fp32Gradients).masterWeights != StorageType::none;
    const double dpcp = dataParallelSize(in.parallel, in.gpus) * in.parallel.cp;
    if (InputError e = validateSharding(o, in.zeroStage, masterWeights, dpcp); !e.ok())
        return e;
    const char* field = o.twoGradientCopies                  ? "two-gradient-copies"
                        : o.gathered != GatheredLayers::none ? "gathered-layers"
                                                             : "shard-group";
    if (isFineTuningSet(in.fineTuning))
        return {field,
                "is modelled for full training; fine-tuning keeps its own ledger (drop the fine-tuning "
                "options or this one)"};
    if (o.gathered != GatheredLayers::none && in.model.kind != ModelKind::transformer)
        return {"gathered-layers", "gathers a transformer's layers one by one; it needs --model transformer"};
    if (o.shardGroup > 0 && in.parallel.ep > 1)
        return {"shard-group", "HSDP with expert parallelism is not modelled; use --ep 1"};
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
        if (m.headDim == 0 && std::fmod(m.dModel, m.heads) != 0) // with head_dim set, d_h is its own
            return {"heads", "must divide d-model (" + n(m.dModel) + "), got " + n(m.heads)};
        if (m.ffnDim == 0 && (!(m.ffnMult > 0 && m.ffnMult <= 64) || !isWhole(m.ffnMult * m.dModel)))
            return {"ffn-mult", "must be in (0, 64] and give a whole MLP width, got " + n(m.ffnMult)};
        if (!(e = validateArchitecture(m)).ok())
            return e;
        break;
    }
    if (countParameters(m).total > 1e15)
        return {m.kind == ModelKind::transformer ? "d-model" : "dim",
                "the model would have " + n(countParameters(m).total) +
                    " parameters; Napkin accounts up to 1e15"};
    // The batch, the tokens, the GPU count and the MFU: their table's ranges and words (training_knobs.h).
    if (auto [field, message] = checkNumberKnobs(trainingKnobs(), in); !field.empty())
        return {field, message};
    if (in.zeroStage < 0 || in.zeroStage > 3)
        return {"zero", "must be 0, 1, 2 or 3, got " + std::to_string(in.zeroStage)};
    if (const std::string_view why =
            optimizerImplementationUnsupported(in.optimizer, in.optimizerImplementation);
        !why.empty())
        return {"optimizer-implementation",
                std::string(optimizerImplementationName(in.optimizerImplementation)) + " with " +
                    std::string(optimizerName(in.optimizer)) + ": " + std::string(why)};
    if (!(e = validateLayout(in.parallel, m, in.gpus)).ok())
        return e;
    if (!(e = validateFineTuning(in.fineTuning, m, isDataParallelOnly(in.parallel))).ok())
        return e;
    if (!(e = validateShardingFor(in)).ok())
        return e;
    if (!(e = validateOverheads(in.overheads)).ok())
        return e;
    if (!(e = validateActivationProfile(m, in.recompute, in.parallel, in.fineTuning)).ok())
        return e;
    if (const auto [field, why] = validateRunCost(in.cost); !field.empty())
        return {field, why};
    const GpuSpec* gpu = catalog.find(in.gpu);
    if (!gpu)
        return {"gpu", "unknown GPU '" + in.gpu + "'; known: " + catalog.idList()};
    // A part with no dense peak for the recipe's arithmetic (fp8 on Ampere, Apple's M4 Max) is not refused:
    // memory, fits and the largest batch need no peak, and account() says why the time is missing.
    return checkFiniteAnswers(in, *gpu);
}

} // namespace napkin
