// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/explain_sharding.h"

#include "app/accounting/explain_html.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

using explain_html::cell;
using explain_html::code;
using explain_html::heading;
using explain_html::n;
using explain_html::numberCell;
using explain_html::q;

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainSharding", text);
}
QString shardingSection(const AccountingInput& in, const AccountingResult& r) {
    const ShardingOptions& o = in.sharding;
    QString text;
    if (o.twoGradientCopies)
        text += tr("<p><b>Two gradient copies</b> (DeepSpeed's ZeRO-1/2, "
                   "<code>deepspeed/runtime/zero/stage_1_and_2.py</code>): autograd fills the 16-bit "
                   "gradients whole, and the optimizer steps on an fp32 partition of them, so each GPU holds "
                   "P × 2 B + P × 4 B / N; with bf16 AdamW the model states are DeepSpeed's estimate "
                   "4Ψ + 16Ψ/N (<code>estimate_zero2_model_states_mem_needs</code>), not the ZeRO paper's "
                   "2Ψ + 2Ψ/N + 12Ψ/N. Gradients: %1</p>")
                    .arg(code(r.memory.gradients.formula));
    if (r.gathered.peakBytes() > 0)
        text += tr("<p><b>Gathered layers</b> (ZeRO-3's working set above the shards). %1 FSDP2 "
                   "(<code>torch/distributed/_composable/fsdp</code>) keeps the root module (embeddings, "
                   "final norm, head) gathered from forward to the end of backward, all-gathers each layer "
                   "in the parameters' dtype before it runs and the next one ahead (prefetch), and in "
                   "backward copies the layer's unsharded gradients into a reduce-scatter buffer in the "
                   "reduce dtype (<code>foreach_reduce</code>) before freeing them. DeepSpeed's estimator "
                   "instead adds 4 B × its largest layer's parameters (<code>stage3.py</code>, "
                   "<code>estimate_zero3_model_states_mem_needs</code>). The timeline shows the gathered "
                   "weights in <i>parameters</i> from the first forward event to the last backward one, and "
                   "the reduce buffers as <i>temporary</i> at each backward layer.</p>")
                    .arg(code(r.gathered.formula));
    if (o.shardGroup > 0)
        text += tr("<p><b>HSDP</b> (FSDP's <code>HYBRID_SHARD</code>, llm-analysis's "
                   "<code>rdp_size</code>): ZeRO shards over groups of %1 GPUs, which replicate; each group "
                   "reduce-scatters within itself and the groups all-reduce their gradient shard, the "
                   "ledger's <i>gradient-shard all-reduce across replicas</i>.</p>")
                    .arg(n(o.shardGroup));
    if (in.parallel.virtualStages > 1)
        text += tr("<p><b>Interleaved 1F1B</b> (Narayanan et al. 2021, section 2.2.2): each stage runs %1 "
                   "model chunks, so the bubble shrinks %1-fold, %2; the first stage holds p + (p − 1)/v "
                   "micro-batches' activations (Megatron-LM's <code>theoretical_memory_usage.py</code>: "
                   "1 + (p − 1)/(p·v) times p), stage i min(2·(p − i − 1) + (v − 1)·p + 1, v·m)/v "
                   "(<code>schedules.py</code>'s warm-up).</p>")
                    .arg(n(in.parallel.virtualStages), code(r.pipelineBubbleFraction.formula));
    return text;
}

QString stageTable(const AccountingResult& r, ByteUnits units) {
    if (r.pipelineStages.empty())
        return {};
    QString text = tr("<p><b>Every pipeline stage</b>, one GPU of each: the first holds the embedding and "
                      "the most micro-batches in flight, the last the final norm, the head (or the tied "
                      "embedding's copy) and the logits; <i>memory</i> above is the most loaded.</p>");
    text += QStringLiteral("<table cellspacing=\"6\"><tr><th>%1</th><th>%2</th><th align=\"left\">%3</th>"
                           "<th>%4</th><th>%5</th><th>%6</th><th>%7</th><th>%8</th></tr>")
                .arg(tr("stage"), tr("layers"), tr("holds"), tr("parameters"), tr("model states"),
                     tr("in flight"), tr("activations"), tr("total"));
    for (const PipelineStageRow& row : r.pipelineStages)
        text += QStringLiteral("<tr>") + numberCell(n(row.index)) + numberCell(n(row.layers)) +
                cell(q(row.holds)) + numberCell(n(row.parameters)) +
                numberCell(q(formatBytes(row.statesBytes, units))) + numberCell(n(row.microBatchesInFlight)) +
                numberCell(q(formatBytes(row.activationBytes, units))) +
                numberCell(q(formatBytes(row.totalBytes, units))) + QStringLiteral("</tr>");
    return text + QStringLiteral("</table>");
}

} // namespace

QString explainSharding(const AccountingInput& input, const AccountingResult& result, ByteUnits units) {
    const QString text = shardingSection(input, result) + stageTable(result, units);
    if (text.isEmpty())
        return {};
    return heading(tr("ZeRO, FSDP and the pipeline's stages")) + text;
}
