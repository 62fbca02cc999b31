// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pipeline_stages.h"

#include "engine/accounting/gathered_layers.h"
#include "engine/text/formula_text.h"

namespace napkin {
namespace {

PipelineStageRow rowOf(const StageMemory& s, double index, double layers, const ParallelLayout& l) {
    PipelineStageRow row;
    row.index = index;
    row.layers = layers;
    row.parameters = s.parameters.total();
    row.statesBytes = s.statesBytes;
    row.microBatchesInFlight = microBatchesInFlight(l, index);
    row.activationBytes = s.activations.bytes;
    row.gatheredBytes = s.gathered.peakBytes();
    row.totalBytes = s.totalBytes;
    return row;
}

} // namespace

std::vector<PipelineStageRow> pipelineStageRows(const AccountingInput& in, const StageMemory& first,
                                                const StageMemory& last, const BytesPerParameter& b) {
    const ParallelLayout& l = in.parallel;
    std::vector<PipelineStageRow> rows;
    if (l.pp <= 1 || in.model.kind != ModelKind::transformer)
        return rows;
    const StageLayerCounts layers = stageLayerCounts(l, in.model.layers);
    const ValuesOnly valuesOnly; // the middle stage's ledgers are read for their bytes alone
    // A middle stage: its layers alone.
    const GpuParameters middle = parametersOnGpu(in.model, l, PipelineStage::middle);
    const ModelStateMemory states = layoutStates(in, middle, b);
    const double statesBytes =
        states.parameters.value + states.gradients.value + states.masterWeights.value + states.optimizerState.value;
    const double gathered = gatheredWorkingSet(in.sharding, in.model, l.tp, middle, b).peakBytes();
    // The first stage's activations per layer, for a middle stage's layers (uneven stages hold others).
    const ActivationMemory& a = first.activations;
    const double scale = a.layers > 0 ? layers.middle / a.layers : 0;

    const auto count = static_cast<long>(l.pp);
    rows.reserve(static_cast<std::size_t>(count));
    rows.push_back(rowOf(first, 0, layers.first, l));
    rows.back().holds = "embedding";
    for (long i = 1; i + 1 < count; ++i) {
        PipelineStageRow row;
        row.index = static_cast<double>(i);
        row.layers = layers.middle;
        row.parameters = middle.total();
        row.statesBytes = statesBytes;
        row.microBatchesInFlight = microBatchesInFlight(l, row.index);
        row.activationBytes =
            (a.layerBytesPerMicroBatch * row.microBatchesInFlight + a.layerFixedBytes) * scale;
        row.gatheredBytes = gathered;
        row.totalBytes = statesBytes + row.activationBytes + gathered;
        rows.push_back(row);
    }
    rows.push_back(rowOf(last, l.pp - 1, layers.last, l));
    rows.back().holds = "head and loss";
    return rows;
}

} // namespace napkin
