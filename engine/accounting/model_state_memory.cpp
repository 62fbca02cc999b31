#include "engine/accounting/model_state_memory.h"

#include "engine/numerics/quantity_format.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

Quantity sharded(double parameters, double bytes, bool isSharded, double gpus, const char* what) {
    Quantity q;
    const double divisor = isSharded ? gpus : 1.0;
    q.value = parameters * bytes / divisor;
    if (bytes == 0) {
        q.formula = std::string("no ") + what + " = 0 B";
        return q;
    }
    q.formula = "P × " + n(bytes) + " B" + (isSharded && gpus > 1 ? " / GPUs" : "") + " = " + n(parameters) +
                " × " + n(bytes) + (isSharded && gpus > 1 ? " / " + n(gpus) : std::string()) + " = " +
                n(q.value) + " B";
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

    b.ledger = n(b.parameters) + " + " + n(b.gradients);
    if (b.masterWeights > 0)
        b.ledger += " + " + n(b.masterWeights);
    for (int i = 0; i < b.optimizerStateTensors; ++i)
        b.ledger += " + " + n(b.optimizerStatePerTensor);
    b.ledger += " = " + n(b.total) + " B";
    return b;
}

ModelStateMemory modelStateMemory(double parameters, const BytesPerParameter& b, int zeroStage, double gpus) {
    ModelStateMemory m;
    m.parameters = sharded(parameters, b.parameters, zeroStage >= 3, gpus, "parameters");
    m.gradients = sharded(parameters, b.gradients, zeroStage >= 2, gpus, "gradients");
    m.masterWeights = sharded(parameters, b.masterWeights, zeroStage >= 1, gpus, "master weights");
    m.optimizerState = sharded(parameters, b.optimizerState, zeroStage >= 1, gpus, "optimizer state");

    const double p = zeroStage >= 3 ? b.parameters / gpus : b.parameters;
    const double g = zeroStage >= 2 ? b.gradients / gpus : b.gradients;
    const double rest =
        zeroStage >= 1 ? (b.masterWeights + b.optimizerState) / gpus : b.masterWeights + b.optimizerState;
    m.bytesPerParameterPerGpu = p + g + rest;
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
