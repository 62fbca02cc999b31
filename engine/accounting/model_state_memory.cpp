// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/model_state_memory.h"

#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

constexpr double kFp32GradientBytes = 4; // DeepSpeed's single_partition_of_fp32_groups[i].grad

double shareBytes(const ParameterShard& g, double bytes, bool isSharded) {
    return g.parameters * bytes / (isSharded ? g.ranks : 1.0);
}

// One group's share appended to the sums: "P × 4 B / GPUs" and its numbers "1.24e8 × 4 / 8".
void addShare(std::string& symbols, std::string& numbers, const ParameterShard& g, double bytes,
              bool isSharded) {
    const bool divided = isSharded && g.ranks > 1;
    const std::string bytesText = n(bytes);
    concatTo(symbols, {symbols.empty() ? "" : " + ", g.symbol, " × ", bytesText, " B", divided ? " / " : "",
                       divided ? std::string_view(g.ranksSymbol) : std::string_view()});
    concatTo(numbers, {numbers.empty() ? "" : " + ", n(g.parameters), " × ", bytesText, divided ? " / " : "",
                       divided ? n(g.ranks) : std::string()});
}

Quantity sharded(std::span<const ParameterShard> groups, double bytes, bool isSharded, const char* what) {
    Quantity q;
    if (bytes == 0) {
        if (formulasWanted())
            q.formula = std::string("no ") + what + " = 0 B";
        return q;
    }
    std::string symbols, numbers;
    const bool formulas = formulasWanted();
    for (const ParameterShard& g : groups) {
        if (!formulas) { // a search's probe: the same sum, no text
            q.value += shareBytes(g, bytes, isSharded);
            continue;
        }
        q.value += shareBytes(g, bytes, isSharded);
        addShare(symbols, numbers, g, bytes, isSharded);
    }
    if (formulas)
        q.formula = concat({symbols, " = ", numbers, " = ", n(q.value), " B"});
    return q;
}

} // namespace

BytesPerParameter bytesPerParameter(const PrecisionLedger& ledger, OptimizerKind optimizer) {
    BytesPerParameter b;
    b.parameters = bytesPerElement(ledger.parameters);
    b.gradients = bytesPerElement(ledger.gradients);
    b.masterWeights = bytesPerElement(ledger.masterWeights);
    b.optimizerStatePerTensor = bytesPerElement(ledger.optimizerState);
    b.optimizerStateTensors = stateTensorsPerParameter(optimizer);
    b.optimizerState = b.optimizerStatePerTensor * b.optimizerStateTensors;
    b.total = b.parameters + b.gradients + b.masterWeights + b.optimizerState;
    if (!formulasWanted())
        return b;

    b.ledger = n(b.parameters) + " + " + n(b.gradients);
    if (b.masterWeights > 0)
        b.ledger += " + " + n(b.masterWeights);
    for (int i = 0; i < b.optimizerStateTensors; ++i)
        b.ledger += " + " + n(b.optimizerStatePerTensor);
    b.ledger += " = " + n(b.total) + " B";
    return b;
}

ModelStateMemory modelStateMemory(double parameters, const BytesPerParameter& b, int zeroStage, double gpus) {
    const ParameterShard all{parameters, gpus, "P", "GPUs"};
    return modelStateMemory(std::span(&all, 1), b, zeroStage);
}

ModelStateMemory modelStateMemory(std::span<const ParameterShard> groups, const BytesPerParameter& b,
                                  int zeroStage, bool twoGradientCopies) {
    ModelStateMemory m;
    m.parameters = sharded(groups, b.parameters, zeroStage >= 3, "parameters");
    m.gradients = sharded(groups, b.gradients, zeroStage >= 2 && !twoGradientCopies, "gradients");
    if (twoGradientCopies) { // DeepSpeed: the buffer autograd fills, whole, and the fp32 partition
        const Quantity partition = sharded(groups, kFp32GradientBytes, true, "fp32 gradient partition");
        m.gradients.value += partition.value;
        if (formulasWanted())
            m.gradients.formula = concat({"gradient buffer + fp32 partition: ", m.gradients.formula, " + ",
                                          partition.formula, " = ", n(m.gradients.value), " B"});
    }
    m.masterWeights = sharded(groups, b.masterWeights, zeroStage >= 1, "master weights");
    m.optimizerState = sharded(groups, b.optimizerState, zeroStage >= 1, "optimizer state");

    // Bytes per parameter of the first group (the dense weights: what "the largest model" scales).
    const double gpus = groups.empty() ? 1.0 : groups.front().ranks;
    const double p = zeroStage >= 3 ? b.parameters / gpus : b.parameters;
    const double g = twoGradientCopies ? b.gradients + kFp32GradientBytes / gpus
                     : zeroStage >= 2  ? b.gradients / gpus
                                       : b.gradients;
    const double rest =
        zeroStage >= 1 ? (b.masterWeights + b.optimizerState) / gpus : b.masterWeights + b.optimizerState;
    m.bytesPerParameterPerGpu = p + g + rest;
    if (!formulasWanted()) // a search's probe
        return m;
    if (zeroStage == 0 || gpus == 1) {
        m.bytesPerParameterPerGpuFormula = b.ledger;
    } else {
        m.bytesPerParameterPerGpuFormula =
            concat({"ZeRO-", std::to_string(zeroStage), " over ", n(gpus), " GPUs: ", n(p), " + ", n(g),
                    " + ", n(rest), " = ", n(m.bytesPerParameterPerGpu), " B"});
    }
    return m;
}

} // namespace napkin
