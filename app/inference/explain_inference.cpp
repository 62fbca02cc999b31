// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/inference/explain_inference.h"

#include "engine/numerics/quantity_format.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainInference", text);
}

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

// One derivation line: what it is, the engine's formula, and the value it gives.
QString row(const QString& what, const Quantity& quantity, const std::string& value) {
    return QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td><b>%3</b></td></tr>")
        .arg(what, esc(quantity.formula), esc(value));
}

// A predicted pass: its total, basis and not-modelled list, then each ledger row with its formula.
QString predictedSection(const QString& title, const InferenceTime& t) {
    QString html = QStringLiteral("<h3>%1</h3>").arg(title);
    if (!t.predicted)
        return html + QStringLiteral("<p>%1</p>").arg(tr("Not predicted: ") + esc(t.whyNot));
    html +=
        QStringLiteral("<p>%1 <b>%2</b> (%3)<br/>%4</p><table>")
            .arg(tr("Each op: max(FLOPs / the profile's FLOP/s at its shape, bytes / its bandwidth), plus "
                    "the per-op overhead; the sum:"),
                 esc(formatDuration(t.seconds)), esc(t.tokensFormula), tr("From ") + esc(t.basis));
    for (const StepTimeRow& entry : t.ledger)
        html += row(QString::fromStdString(entry.name), {entry.seconds, entry.formula},
                    formatDuration(entry.seconds));
    html += QStringLiteral("</table>");
    if (!t.notModelled.empty()) {
        html += QStringLiteral("<p>%1</p><ul>").arg(tr("Not modelled:"));
        for (const std::string& line : t.notModelled)
            html += QStringLiteral("<li>%1</li>").arg(esc(line));
        html += QStringLiteral("</ul>");
    }
    return html;
}

} // namespace

QString explainInference(const InferenceInput& in, const InferenceResult& r, const InferenceTimes& times) {
    QString html;
    html += QStringLiteral("<h3>%1</h3><table>").arg(tr("Memory on each GPU"));
    html += row(tr("weights"), r.memory.weights, formatBytes(r.memory.weights.value));
    html += row(tr("KV cache per token"), r.kvCacheBytesPerToken, formatBytes(r.kvCacheBytesPerToken.value));
    html += row(tr("KV cache"), r.memory.kvCache, formatBytes(r.memory.kvCache.value));
    html += row(tr("activations"), r.memory.activations, formatBytes(r.memory.activations.value));
    html += row(tr("total"), r.memory.total, formatBytes(r.memory.total.value));
    html += row(tr("capacity (datasheet)"), r.capacityBytes, formatBytes(r.capacityBytes.value));
    for (const OverheadLine& l : r.overheads.lines)
        html += row(l.label.empty() ? tr("overhead") : QString::fromStdString(l.label) +
                                                         (l.counted ? QString() : tr(" (not counted)")),
                    {l.bytes, l.formula + "; " + l.source}, l.measured ? formatBytes(l.bytes) : "not measured");
    html += row(tr("usable"), r.usableBytes, formatBytes(r.usableBytes.value));
    html += QStringLiteral("</table><p>%1 <code>%2</code></p>")
                .arg(r.fits ? tr("The total and the counted overheads fit (the same rule as training's):")
                            : tr("The total and the counted overheads do not fit (the same rule as training's):"),
                     esc(r.fitsFormula));
    html += QStringLiteral("<h3>%1</h3><p>%2</p><table>")
                .arg(tr("Prefill: the prompt in one pass"),
                     tr("Time is at least the larger of FLOPs / peak and bytes / bandwidth (the roofline)."));
    html += row(tr("FLOPs"), r.prefillFlops, formatFlops(r.prefillFlops.value));
    html += row(tr("bytes read"), r.prefillBytes, formatBytes(r.prefillBytes.value));
    html += row(tr("time"), r.prefillSeconds, formatDuration(r.prefillSeconds.value));
    html += QStringLiteral("</table><h3>%1</h3><p>%2</p><table>")
                .arg(tr("Decode: one token per sequence per step"),
                     tr("Each step reads every weight and the whole KV cache to compute one token per "
                        "sequence: at a small batch the bytes, not the FLOPs, set the time."));
    html += row(tr("FLOPs per step"), r.decodeStepFlops, formatFlops(r.decodeStepFlops.value));
    html += row(tr("bytes per step"), r.decodeBytesPerToken, formatBytes(r.decodeBytesPerToken.value));
    html += row(tr("time per step"), r.decodeSecondsPerToken, formatDuration(r.decodeSecondsPerToken.value));
    html += row(tr("tokens/s"), r.decodeTokensPerSecond, formatNumber(r.decodeTokensPerSecond.value));
    html += QStringLiteral("</table><h3>%1</h3><table>").arg(tr("Memory- or compute-bound"));
    html += row(tr("arithmetic intensity"), r.arithmeticIntensity,
                formatNumber(r.arithmeticIntensity.value) + " FLOP/B");
    html += row(tr("ridge (peak / bandwidth)"), r.ridgeFlopsPerByte,
                formatNumber(r.ridgeFlopsPerByte.value) + " FLOP/B");
    html += QStringLiteral("</table><p>%1</p>")
                .arg(tr("At batch %1 a decode step is <b>%2-bound</b>: its intensity is %3 the ridge.")
                         .arg(QString::fromStdString(formatNumber(in.batch)), esc(r.bound),
                              r.bound == "memory" ? tr("below") : tr("at or above")));
    html += predictedSection(tr("Prefill, predicted by the training step's model"), times.prefill);
    html += predictedSection(tr("Decode step, predicted by the training step's model"), times.decode);
    return html;
}
