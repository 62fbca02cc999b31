// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/explain_overheads.h"

#include "app/accounting/explain_html.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

using explain_html::code;
using explain_html::heading;
using explain_html::q;

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainOverheads", text);
}

} // namespace

QString explainOverheads(const AccountingInput& in, const AccountingResult& r, ByteUnits units) {
    const MemoryOverheads& o = r.overheads;
    QString text = heading(tr("Overheads and usable memory"));
    text += tr("<p>A real PyTorch run holds more than the tensors above: the CUDA context, the cuBLAS and "
               "cuBLASLt workspaces, the caching allocator's rounding and fragmentation, NCCL's buffers, and "
               "for fp8 recipes extra weight copies. And a card's real size is not its datasheet's: an "
               "“80 GB” H100 SXM reports 81,559 MiB = 85.52e9 bytes.</p>");
    if (o.basis == MemoryBasis::datasheet)
        text +=
            tr("<p><b>Datasheet basis</b> (the lecture's convention): “fits” compares the step's peak with "
               "the datasheet's %1 and counts no overhead. The lines below are shown, not counted.</p>")
                .arg(q(formatBytes(o.nominalBytes, units)));
    else
        text +=
            tr("<p><b>Usable basis</b>: “fits” compares the step's peak plus the counted lines below with "
               "%1 usable (%2; the datasheet says %3).</p>")
                .arg(q(formatBytes(r.usableBytes.value, units)), q(o.usableSource),
                     q(formatBytes(o.nominalBytes, units)));
    text +=
        QStringLiteral("<table cellspacing=\"4\"><tr><th align=\"left\">%1</th><th align=\"right\">%2</th>"
                       "<th align=\"left\">%3</th></tr>")
            .arg(tr("line"), tr("bytes"), tr("formula and source"));
    for (const OverheadLine& l : o.lines) {
        const QString bytes = l.measured ? q(formatBytes(l.bytes, units)) : tr("not measured");
        text += QStringLiteral("<tr><td>%1%2</td><td align=\"right\">%3</td><td>%4<br><i>%5</i></td></tr>")
                    .arg(q(l.label), l.counted ? QString() : tr(" (not counted)"), bytes, code(l.formula),
                         q(l.source));
    }
    text += QStringLiteral("</table>");
    text += tr("<p>Prediction: %1 without overheads, <b>%2</b> with them: %3<br>%4</p>")
                .arg(q(formatBytes(r.peakMemory.value, units)), q(formatBytes(r.predictedBytes.value, units)),
                     code(r.predictedBytes.formula), code(r.fitsFormula));
    if (o.basis == MemoryBasis::usable && in.overheads.fragmentation == 0)
        text +=
            tr("<p>The fragmentation allowance is 0: PyTorch documents no typical figure. Set it from your "
               "own run's max_memory_reserved / max_memory_allocated − 1.</p>");
    return text;
}
