#include "cli/accounting_text.h"

#include "engine/numerics/quantity_format.h"

#include <sstream>

namespace napkin::cli {

std::string accountingToText(const AccountingInput& in, const GpuSpec& gpu, const AccountingResult& r) {
    std::ostringstream s;
    auto line = [&](const std::string& label, const std::string& value, const std::string& formula) {
        s << label << ": " << value << "\n    " << formula << "\n";
    };
    line("parameters", formatNumber(r.parameters.total), r.parameters.formula);
    line("bytes per parameter", formatNumber(r.bytesPerParameter.total) + " B", r.bytesPerParameter.ledger);
    s << "memory per GPU (" << gpu.id << ", " << formatBytes(gpu.memoryBytes) << "):\n";
    auto memory = [&](const char* label, const Quantity& q) {
        s << "  " << label << ": " << formatBytes(q.value) << "  (" << q.formula << ")\n";
    };
    memory("parameters     ", r.memory.parameters);
    memory("gradients      ", r.memory.gradients);
    memory("master weights ", r.memory.masterWeights);
    memory("optimizer state", r.memory.optimizerState);
    memory("activations    ", r.memory.activations);
    memory("total          ", r.memory.total);
    s << "  fits: " << (r.fits ? "yes" : "NO") << "\n";
    line("FLOPs per step", formatNumber(r.flopsPerStep.total), r.flopsPerStep.totalFormula);
    s << "    forward: " << r.flopsPerStep.forwardFormula
      << "\n    backward: " << r.flopsPerStep.backwardFormula << "\n";
    if (r.trainingFlops) {
        line("training FLOPs", formatNumber(r.trainingFlops->value), r.trainingFlops->formula);
        line("training time", formatDuration(r.trainingSeconds->value), r.trainingSeconds->formula);
        line("GPU-days", formatNumber(r.gpuDays->value), r.gpuDays->formula);
    } else {
        s << "training totals: give --tokens to see training FLOPs and time\n";
    }
    line("largest model that fits", formatNumber(r.maxParameters.value), r.maxParameters.formula);
    if (r.maxBatch)
        line("largest batch that fits", formatNumber(r.maxBatch->value), r.maxBatch->formula);
    for (const std::string& note : r.notes)
        s << "note: " << note << "\n";
    (void)in;
    return s.str();
}

} // namespace napkin::cli
