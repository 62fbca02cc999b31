// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/accounting_text.h"

#include "engine/accounting/fine_tuning_memory.h"
#include "engine/numerics/quantity_format.h"

#include <sstream>

namespace napkin::cli {

std::string runCostText(const RunCost& c) {
    std::ostringstream s;
    s << "GPU-hours: " << formatNumber(c.gpuHours.value) << "\n    " << c.gpuHours.formula << "\n";
    if (c.dollars)
        s << "cost: $" << formatNumber(c.dollars->value) << "\n    " << c.dollars->formula << "\n";
    else
        s << "cost: give --price-per-gpu-hour to see the money\n";
    if (c.energyJoules) {
        s << "energy: " << formatNumber(c.energyJoules->value / 3.6e9) << " MWh\n    "
          << c.powerWatts->formula << "; " << c.energyJoules->formula << "\n";
        s << "emissions: " << formatNumber(c.emissionsKg->value / 1000) << " t CO2eq\n    "
          << c.emissionsKg->formula << "\n";
    } else {
        s << "energy and emissions: " << c.missing << "\n";
    }
    return s.str();
}

std::string accountingToText(const AccountingInput& in, const GpuSpec& gpu, const AccountingResult& r,
                             const FitVerdict* verdict) {
    std::ostringstream s;
    auto line = [&](const std::string& label, const std::string& value, const std::string& formula) {
        s << label << ": " << value << "\n    " << formula << "\n";
    };
    line("parameters", formatNumber(r.parameters.total), r.parameters.formula);
    // Under LoRA and QLoRA the recipe's ledger is that of the trained parameters; the frozen base is
    // stored otherwise (NF4 under QLoRA) and says so on its own line.
    const Quantity frozen = r.fineTune ? frozenBytesPerParameter(*r.fineTune) : Quantity{};
    line(frozen.value > 0 ? "bytes per trainable parameter" : "bytes per parameter",
         formatNumber(r.bytesPerParameter.total) + " B", r.bytesPerParameter.ledger);
    if (frozen.value > 0)
        line("bytes per frozen parameter", formatNumber(frozen.value) + " B", frozen.formula);
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
    if (verdict) // what an out-of-memory error follows, where the simulated allocator applies
        s << "  verdict: " << (verdict->fits ? "yes" : "NO") << "  (" << verdict->formula << ")\n";
    line("FLOPs per step", formatNumber(r.flopsPerStep.total), r.flopsPerStep.totalFormula);
    s << "    forward: " << r.flopsPerStep.forwardFormula
      << "\n    backward: " << r.flopsPerStep.backwardFormula << "\n";
    if (r.trainingFlops) {
        line("training FLOPs (model)", formatNumber(r.trainingFlops->value), r.trainingFlops->formula);
        if (r.trainingHardwareFlops->value != r.trainingFlops->value)
            line("training FLOPs (hardware, with recompute)", formatNumber(r.trainingHardwareFlops->value),
                 r.trainingHardwareFlops->formula);
        if (r.trainingSeconds)
            line("training time at MFU " + formatNumber(in.mfu), formatDuration(r.trainingSeconds->value),
                 r.trainingSeconds->formula);
        else // the part has no peak for this arithmetic: the memory answers stand
            s << r.timeUnavailable << "\n"; // "no training time: <why>"
        line("HFU", formatNumber(r.hfu.value), r.hfu.formula);
        if (r.gpuDays)
            line("GPU-days", formatNumber(r.gpuDays->value), r.gpuDays->formula);
        if (r.runCost)
            s << runCostText(*r.runCost);
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
        if (!r.pipelineStages.empty())
            s << "memory per pipeline stage (one GPU each; states + activations in flight = total):\n";
        for (const PipelineStageRow& row : r.pipelineStages)
            s << "  stage " << formatNumber(row.index) << (row.holds.empty() ? "" : " (" + row.holds + ")")
              << ": " << formatBytes(row.statesBytes) << " + " << formatBytes(row.activationBytes) << " ("
              << formatNumber(row.microBatchesInFlight) << " micro-batches)"
              << (row.gatheredBytes > 0 ? " + " + formatBytes(row.gatheredBytes) + " gathered" : "") << " = "
              << formatBytes(row.totalBytes) << "\n";
    }
    if (r.gathered.peakBytes() > 0)
        line("gathered layers (ZeRO-3 working set)", formatBytes(r.gathered.peakBytes()), r.gathered.formula);
    for (const std::string& note : r.notes)
        s << "note: " << note << "\n";
    return s.str();
}

} // namespace napkin::cli
