// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/explain_ledgers.h"

#include "app/accounting/explain_html.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

using explain_html::cell;
using explain_html::code;
using explain_html::heading;
using explain_html::n;
using explain_html::q;

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainLedgers", text);
}
QString activationSection(const AccountingResult& r, ByteUnits units) {
    const ActivationMemory& a = r.activations;
    if (a.ledger.empty())
        return {};
    QString text = heading(tr("Activations kept for backward"));
    text +=
        tr("<p>Every tensor a layer's backward pass reads is kept from the forward pass until then "
           "(Korthikanti et al. 2022 count them to reach 34·s·b·h + 5·a·s²·b bytes per layer). One row per "
           "tensor, on this GPU, for one layer and one micro-batch:</p>");
    if (!a.describes.empty())
        text += tr("<p><b>Whose tensors:</b> %1</p>").arg(q(a.describes));
    text += QStringLiteral("<table cellspacing=\"6\"><tr><th align=\"left\">%1</th><th>%2</th><th>%3</th>"
                           "<th>%4</th><th align=\"left\">%5</th></tr>")
                .arg(tr("tensor"), tr("elements"), tr("dtype"), tr("bytes"), tr("kept for"));
    for (const ActivationLedgerRow& row : a.ledger)
        text += QStringLiteral("<tr>") + cell(q(row.name) + (row.perLayer ? QString() : tr(" (once)"))) +
                cell(n(row.elements)) + cell(q(row.dtype)) + cell(q(formatBytes(row.bytes, units))) +
                cell(q(row.savedFor)) + QStringLiteral("</tr>");
    text += QStringLiteral("</table>");
    text += tr("<p>%1 layers on this GPU × %2 micro-batch(es) in flight, plus the rows kept once: %3</p>")
                .arg(n(a.layers), n(a.microBatchesInFlight), code(a.formula));
    return text;
}

QString layoutSection(const AccountingResult& r, const AccountingInput& in, ByteUnits units) {
    QString text = heading(tr("Parallel layout and communication"));
    text += tr("<p>%1<br>%2<br>Pipeline bubble: %3<br>Weights on this GPU before ZeRO: %4</p>")
                .arg(code(r.dataParallel.formula), code(r.globalBatch.formula),
                     code(r.pipelineBubbleFraction.formula), code(r.parametersOnGpu.formula));
    if (r.communication.items.empty())
        return text + tr("<p>One GPU (or a layout with nothing to exchange): no communication.</p>");
    text += tr("<p>What one GPU sends per step (a ring collective over n GPUs sends (n−1)/n of the data per "
               "reduce-scatter or all-gather, twice that per all-reduce), at the %1's links:</p>")
                .arg(q(in.gpu));
    text += QStringLiteral("<table cellspacing=\"6\"><tr><th align=\"left\">%1</th><th>%2</th><th>%3</th>"
                           "<th align=\"left\">%4</th></tr>")
                .arg(tr("collective"), tr("bytes"), tr("time"), tr("formula"));
    for (const CommunicationItem& item : r.communication.items)
        text +=
            QStringLiteral("<tr>") +
            cell(q(std::string(communicationGroupName(item.group))) + QStringLiteral(": ") + q(item.name)) +
            cell(q(formatBytes(item.bytes, units))) +
            cell(item.seconds ? q(formatDuration(*item.seconds)) : tr("unknown")) + cell(code(item.formula)) +
            QStringLiteral("</tr>");
    text += QStringLiteral("</table><p>%1</p>").arg(code(r.communication.total.formula));
    return text;
}

} // namespace

QString explainLedgers(const AccountingInput& input, const AccountingResult& result, ByteUnits units) {
    QString text = activationSection(result, units) + layoutSection(result, input, units);
    if (!result.fitAdvice.empty())
        text += heading(tr("When even one sequence does not fit")) +
                QStringLiteral("<p>%1</p>").arg(q(result.fitAdvice));
    return text;
}
