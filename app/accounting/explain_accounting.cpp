// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/explain_accounting.h"

#include "app/accounting/explain_fine_tuning.h"
#include "app/accounting/explain_html.h"
#include "app/accounting/explain_ledgers.h"
#include "app/accounting/explain_overheads.h"
#include "app/accounting/explain_peers.h"
#include "app/accounting/explain_run_cost.h"
#include "app/accounting/explain_sharding.h"
#include "app/accounting/memory_timeline_section.h"
#include "engine/numerics/storage_type.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

using explain_html::code;
using explain_html::heading;
using explain_html::n;
using explain_html::q;

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainAccounting", text);
}
QString dtype(StorageType t) {
    return q(std::string(storageTypeName(t)));
}

QString parametersSection(const AccountingResult& r) {
    // A dense model's count is its own formula, "N = 70000000000": not "N = N = …".
    const std::string& formula = r.parameters.formula;
    const bool named = formula.rfind("N = ", 0) == 0;
    return heading(tr("Parameters N")) +
           (named ? QStringLiteral("<p>%1</p>") : QStringLiteral("<p>N = %1</p>")).arg(code(formula));
}

// Each parameter is stored once per copy the training step keeps: the weights, their gradient, an fp32
// master copy under mixed precision, and one tensor per optimizer moment.
QString bytesSection(const AccountingResult& r, const AccountingInput& in, ByteUnits units) {
    const BytesPerParameter& b = r.bytesPerParameter;
    const PrecisionLedger& p = r.precision;
    QStringList terms;
    terms << tr("weights %1 B (%2)").arg(n(b.parameters), dtype(p.parameters));
    terms << tr("gradients %1 B (%2)").arg(n(b.gradients), dtype(p.gradients));
    if (b.masterWeights > 0)
        terms << tr("fp32 master weights %1 B").arg(n(b.masterWeights));
    if (b.optimizerStateTensors > 0)
        terms << tr("%1 optimizer state tensor(s) × %2 B (%3)")
                     .arg(b.optimizerStateTensors)
                     .arg(n(b.optimizerStatePerTensor), dtype(p.optimizerState));
    QString text = heading(tr("Bytes per parameter")) +
                   QStringLiteral("<p>%1 = <b>%2 B/param</b><br>%3</p>")
                       .arg(terms.join(QStringLiteral(" + ")), n(b.total), code(b.ledger));
    text += tr("<p>AdamW keeps two moments (m and v) per parameter; with everything in fp32 that is "
               "4 (weights) + 4 (gradients) + 4 + 4 (moments) = 16 B/param. Mixed precision adds a 4 B fp32 "
               "master copy beside 2 B weights and gradients.</p>");
    text += tr("<p>Memory per GPU (ZeRO stage %1 over %2 GPU(s)), the sum of every component at its largest: "
               "<b>%3</b> = %4<br>Largest model whose states (the peak at the optimizer step) fit: %5</p>")
                .arg(in.zeroStage)
                .arg(n(in.gpus), q(formatBytes(r.memory.total.value, units)), code(r.memory.total.formula),
                     code(r.maxParameters.formula));
    return text;
}

QString flopsSection(const AccountingResult& r) {
    const StepFlops& f = r.flopsPerStep;
    QString text = heading(tr("FLOPs of one step"));
    text += tr(
        "<p>A matmul C[m×n] = A[m×k]·B[k×n] costs <b>2·m·n·k</b> FLOPs: each of the m·n outputs "
        "needs k multiplies and k adds. A linear layer with a d<sub>in</sub>×d<sub>out</sub> weight applied "
        "to T tokens is m = T, k = d<sub>in</sub>, n = d<sub>out</sub>: 2·T·(its weights). Summed over "
        "all weights, the forward pass is <b>2·tokens·N</b>.</p>");
    text += QStringLiteral("<p>%1 %2<br>").arg(tr("forward:"), code(f.forwardFormula));
    int shown = 0;
    for (const ComponentFlops& c : f.components) {
        if (++shown > 6) {
            text += tr("… and %1 more components<br>").arg(f.components.size() - 6);
            break;
        }
        text += QStringLiteral("&nbsp;&nbsp;%1: %2<br>").arg(q(c.name), code(c.formula));
    }
    text += QStringLiteral("</p>");
    text +=
        tr("<p>The backward pass does two matmuls per forward matmul (the gradient with respect to the "
           "input and with respect to the weight), so it costs twice the forward: <b>4·tokens·N</b>.</p>");
    text += QStringLiteral("<p>%1 %2").arg(tr("backward:"), code(f.backwardFormula));
    if (f.recompute > 0)
        text += QStringLiteral("<br>%1 %2").arg(tr("recompute:"), code(f.recomputeFormula));
    text += QStringLiteral("<br>%1 %2</p>").arg(tr("total:"), code(f.totalFormula));
    text += tr("<p>Per token: forward 2N + backward 4N = <b>6N</b> → %1 FLOPs per token<br>%2</p>")
                .arg(n(r.flopsPerToken.value), code(r.flopsPerToken.formula));
    return text;
}

QString trainingSection(const AccountingResult& r, const AccountingInput& in) {
    QString text = heading(tr("Training FLOPs and time"));
    if (r.trainingFlops && !r.timeUnavailable.empty()) // the part has no peak for this arithmetic
        return text + tr("<p>Model FLOPs = %1</p><p>Time = model FLOPs / (GPUs · dense peak · MFU): %2. "
                         "Memory, fits and the largest batch need no peak and are answered.</p>")
                          .arg(code(r.trainingFlops->formula), q(r.timeUnavailable));
    if (!r.trainingFlops || !r.trainingSeconds || !r.trainingDays) {
        return text + tr("<p>Tick “Count training totals” and give the tokens: model FLOPs = 6·N·tokens, "
                         "time = model FLOPs / (GPUs · peak · MFU).</p>");
    }
    text += tr("<p>Model FLOPs (forward + backward, recompute excluded: what MFU counts) = %1</p>")
                .arg(code(r.trainingFlops->formula));
    text += tr("<p>Time = model FLOPs / (GPUs · dense peak · MFU) = %1<br>= %2 (%3 GPUs)</p>")
                .arg(code(r.trainingSeconds->formula), code(r.trainingDays->formula), n(in.gpus));
    if (r.trainingHardwareFlops && r.trainingHardwareFlops->value != r.trainingFlops->value)
        text +=
            tr("<p>The GPUs also run the recompute: hardware FLOPs = %1. Recompute does not change the time "
               "at a given MFU; it raises the HFU: %2</p>")
                .arg(code(r.trainingHardwareFlops->formula), code(r.hfu.formula));
    return text;
}

QString mfuSection(const AccountingResult& r, const AccountingInput& in) {
    const double peak = r.densePeakFlopsPerSecond.value;
    QString text = heading(tr("MFU"));
    text += tr("<p><b>MFU = achieved model FLOP/s ÷ promised dense peak FLOP/s.</b> Achieved counts only the "
               "model's FLOPs (6N per token), not recomputation or overhead.</p>");
    if (!r.timeUnavailable.empty())
        return text + tr("<p>Dense peak of one %1 for this recipe: %2</p>")
                          .arg(q(in.gpu), code(r.densePeakFlopsPerSecond.formula));
    text += tr("<p>Dense peak of one %1 for this recipe: %2<br>At MFU %3 each GPU delivers %3 × %4 = "
               "<b>%5</b></p>")
                .arg(q(in.gpu), code(r.densePeakFlopsPerSecond.formula), n(in.mfu), n(peak),
                     q(formatFlops(in.mfu * peak, true)));
    text += tr("<p><b>HFU</b> (hardware FLOPs utilisation) counts the recompute too: %1</p>")
                .arg(code(r.hfu.formula));
    return text;
}

} // namespace

QString explainAccounting(const AccountingInput& input, const AccountingResult& result, ByteUnits units) {
    return explainAccounting(input, result, memoryTimeline(input, result), units);
}

QString explainAccounting(const AccountingInput& input, const AccountingResult& result,
                          const MemoryTimeline& timeline, ByteUnits units) {
    return parametersSection(result) + explainFineTuning(input, result, units) +
           bytesSection(result, input, units) + explainMemoryTimeline(input, result, timeline, units) +
           explainOverheads(input, result, units) + flopsSection(result) + trainingSection(result, input) +
           mfuSection(result, input) + explainRunCost(input, result) + explainGpuCapabilities(input) +
           explainLedgers(input, result, units) + explainSharding(input, result, units) +
           explainPeers(input, result, units);
}
