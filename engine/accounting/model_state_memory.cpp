#include "engine/accounting/model_state_memory.h"

#include "engine/numerics/formula_text.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

constexpr double kFp32GradientBytes = 4; // DeepSpeed's single_partition_of_fp32_groups[i].grad

// One group's share: "P × 4 B / GPUs" and its numbers "1.24e8 × 4 / 8".
struct Share {
    double value = 0;
    std::string symbols, numbers;
};

double shareBytes(const ParameterShard& g, double bytes, bool isSharded) {
    return g.parameters * bytes / (isSharded ? g.ranks : 1.0);
}

Share share(const ParameterShard& g, double bytes, bool isSharded) {
    const bool divided = isSharded && g.ranks > 1;
    Share s;
    s.value = shareBytes(g, bytes, isSharded);
    s.symbols = g.symbol + " × " + n(bytes) + " B" + (divided ? " / " + g.ranksSymbol : std::string());
    s.numbers = n(g.parameters) + " × " + n(bytes) + (divided ? " / " + n(g.ranks) : std::string());
    return s;
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
        const Share s = share(g, bytes, isSharded);
        q.value += s.value;
        symbols += (symbols.empty() ? "" : " + ") + s.symbols;
        numbers += (numbers.empty() ? "" : " + ") + s.numbers;
    }
    if (formulas)
        q.formula = symbols + " = " + numbers + " = " + n(q.value) + " B";
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
            m.gradients.formula = "gradient buffer + fp32 partition: " + m.gradients.formula + " + " +
                                  partition.formula + " = " + n(m.gradients.value) + " B";
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
        m.bytesPerParameterPerGpuFormula = "ZeRO-" + std::to_string(zeroStage) + " over " + n(gpus) +
                                           " GPUs: " + n(p) + " + " + n(g) + " + " + n(rest) + " = " +
                                           n(m.bytesPerParameterPerGpu) + " B";
    }
    return m;
}

} // namespace napkin
