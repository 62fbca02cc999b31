// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/roofline/explain_roofline.h"

#include "engine/numerics/quantity_format.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainRoofline", text);
}

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

} // namespace

QString explainRoofline(const std::optional<Roofline>& roof, const InferenceResult* r) {
    QString html =
        QStringLiteral("<h3>%1</h3><p>%2</p>")
            .arg(tr("The roofline"),
                 tr("A kernel doing F FLOPs while moving B bytes runs at most "
                    "<code>min(peak, (F/B) × bandwidth)</code> FLOP/s (Williams, Waterman &amp; "
                    "Patterson, 2009): the slanted roof for low arithmetic intensity F/B, the flat "
                    "roof above the ridge."));
    if (!roof) {
        html += QStringLiteral("<p>%1</p>").arg(tr("No roof is drawn yet, so no numbers to substitute."));
    } else {
        html += QStringLiteral("<table>");
        html += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td><td>%3</td></tr>")
                    .arg(tr("peak"), esc(formatFlops(roof->peakFlopsPerSecond, true)), esc(roof->peakSource));
        html += QStringLiteral("<tr><td>%1</td><td><b>%2/s</b></td><td>%3</td></tr>")
                    .arg(tr("bandwidth"), esc(formatBytes(roof->bandwidthBytesPerSecond)),
                         esc(roof->bandwidthSource));
        html += QStringLiteral("<tr><td>%1</td><td><b>%2 FLOP/B</b></td><td><code>%3</code></td></tr>")
                    .arg(tr("ridge"), esc(formatNumber(roof->ridgeFlopsPerByte())), tr("peak / bandwidth"));
        html += QStringLiteral("</table>");
    }
    html += QStringLiteral("<h3>%1</h3><p>%2</p>")
                .arg(tr("Measured GEMMs"),
                     tr("C[m×n] = A[m×k]·B[k×n] does 2·m·n·k FLOPs and, reading A and B and writing C once, "
                        "moves (m·k + k·n + m·n)·bytes: intensity <code>2·m·n·k / ((m·k + k·n + "
                        "m·n)·bytes)</code>, "
                        "2n/(3·bytes) for a square n. Large GEMMs sit right of the ridge."));
    if (r) {
        html += QStringLiteral("<h3>%1</h3><table>").arg(tr("The Inference tab's setting"));
        html += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td><b>%3 FLOP/B</b></td></tr>")
                    .arg(tr("decode intensity"), esc(r->arithmeticIntensity.formula),
                         esc(formatNumber(r->arithmeticIntensity.value)));
        html += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td><b>%3</b></td></tr>")
                    .arg(tr("decode step"), esc(r->decodeSecondsPerToken.formula),
                         esc(formatDuration(r->decodeSecondsPerToken.value)));
        html += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td><b>%3</b></td></tr>")
                    .arg(tr("prefill"), esc(r->prefillSeconds.formula),
                         esc(formatDuration(r->prefillSeconds.value)));
        html += QStringLiteral("</table><p>%1</p>")
                    .arg(tr("Decode is <b>%1-bound</b> here: its intensity is %2 the ridge.")
                             .arg(esc(r->bound), r->bound == "memory" ? tr("below") : tr("at or above")));
    }
    return html;
}
