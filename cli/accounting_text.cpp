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
    memory("total (sum)    ", r.memory.total);
    s << "  peak over one step: " << formatBytes(r.peakMemory.value) << "  (" << r.peakMemory.formula
      << ")\n";
    const MemoryOverheads& o = r.overheads;
    s << "  overheads (" << memoryBasisName(o.basis) << " basis";
    s << (o.basis == MemoryBasis::datasheet ? ": none counted, the lecture's convention" : "") << "):\n";
    for (const OverheadLine& l : o.lines)
        s << "    " << l.label << ": " << (l.measured ? formatBytes(l.bytes) : std::string("not measured"))
          << (l.counted ? "" : "  [not counted]") << "  (" << l.formula << "; " << l.source << ")\n";
    s << "  nominal memory: " << formatBytes(o.nominalBytes)
      << ", usable: " << formatBytes(r.usableBytes.value) << "  (" << r.usableBytes.formula << ")\n";
    s << "  prediction: " << formatBytes(r.peakMemory.value) << " without overheads, "
      << formatBytes(r.predictedBytes.value) << " with them\n";
    s << "  fits: " << (r.fits ? "yes" : "NO") << "  (" << r.fitsFormula << ")\n";
    line("FLOPs per step", formatNumber(r.flopsPerStep.total), r.flopsPerStep.totalFormula);
    s << "    forward: " << r.flopsPerStep.forwardFormula
      << "\n    backward: " << r.flopsPerStep.backwardFormula << "\n";
    if (r.trainingFlops) {
        line("training FLOPs (model)", formatNumber(r.trainingFlops->value), r.trainingFlops->formula);
        if (r.trainingHardwareFlops->value != r.trainingFlops->value)
            line("training FLOPs (hardware, with recompute)", formatNumber(r.trainingHardwareFlops->value),
                 r.trainingHardwareFlops->formula);
        line("training time at MFU " + formatNumber(in.mfu), formatDuration(r.trainingSeconds->value),
             r.trainingSeconds->formula);
        line("HFU", formatNumber(r.hfu.value), r.hfu.formula);
        line("GPU-days", formatNumber(r.gpuDays->value), r.gpuDays->formula);
    } else {
        s << "training totals: give --tokens to see training FLOPs and time\n";
    }
    line("largest model that fits", formatNumber(r.maxParameters.value), r.maxParameters.formula);
    if (r.maxBatch && r.fitAdvice.empty())
        line("largest batch that fits", formatNumber(r.maxBatch->value), r.maxBatch->formula);
    else if (r.maxBatch)
        line("largest batch that fits", "none: " + r.fitAdvice, r.maxBatch->formula);
    if (r.maxSequence)
        line("longest sequence that fits", formatExact(r.maxSequence->value) + " tokens",
             r.maxSequence->formula);
    // What the architecture options and parallel layouts add; absent for GPT-2 on data parallelism alone.
    const bool layout = !isDataParallelOnly(in.parallel) || in.parallel.microbatches > 1;
    if (in.model.kind == ModelKind::transformer && isMixtureOfExperts(in.model))
        line("active parameters", formatNumber(r.parameters.active), r.parameters.activeFormula);
    if (layout) {
        line("largest model pooled over all GPUs", formatNumber(r.maxParametersPooled.value),
             r.maxParametersPooled.formula);
        s << "layout: " << layoutText(in.parallel) << ", dp " << formatNumber(r.dataParallel.value)
          << ", global batch " << formatNumber(r.globalBatch.value) << ", pipeline bubble "
          << formatNumber(r.pipelineBubbleFraction.value) << "\n";
        s << "communication per GPU per step: " << formatBytes(r.communication.total.bytes) << "\n";
        for (const CommunicationItem& item : r.communication.items)
            s << "  " << communicationGroupName(item.group) << ": " << item.name << "\n    " << item.formula
              << "\n";
    }
    for (const std::string& note : r.notes)
        s << "note: " << note << "\n";
    return s.str();
}

} // namespace napkin::cli
