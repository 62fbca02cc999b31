// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/step_time_answer.h"

#include "app/accounting/explain_html.h"
#include "engine/numerics/quantity_format.h"
#include "engine/steptime/step_time_summary.h"
#include "widgets/text/engine_text.h"

#include <QCoreApplication>

#include <cmath>

using namespace napkin;
using namespace explain_html;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("StepTimeAnswer", text);
}

// The ledger has a row per op of the step; the section lists those that decide it.
constexpr std::size_t kExplainedRows = 12;

} // namespace

StepTimeAnswer stepTimeAnswer(const StepTime& t, double assumedMfu) {
    if (!t.predicted)
        return {tr("— not predicted: %1").arg(toQString(t.whyNot)), toQString(t.whyNot)};
    StepTimeAnswer answer;
    // The step's tokens say what the figure is of: the lecture's 70B question steps one token per GPU.
    answer.value = tr("%1 per step of %2 tokens · MFU %3 (assumed %4)")
                       .arg(toQString(formatDuration(t.seconds)),
                            toQString(formatNumber(std::round(t.tokensPerSecond * t.seconds))),
                            toQString(formatNumber(t.mfu)), toQString(formatNumber(assumedMfu)));
    answer.formula = toQString(t.mfuFormula) + QStringLiteral("\n") + toQString(stepSecondsByKindText(t)) +
                     QStringLiteral("\n") + tr("from %1").arg(toQString(t.basis)) + QStringLiteral("\n") +
                     toQString(stepTimeValidationNote(t.basis));
    return answer;
}

QString explainStepTime(const StepTime& t, double assumedMfu) {
    QString text = heading(tr("Step time, predicted"));
    if (!t.predicted)
        return text + tr("<p>Not predicted: %1</p>").arg(q(t.whyNot));
    text += tr("<p>One optimizer step over the global batch takes <b>%1</b> (%2 tokens/s): predicted MFU "
               "<b>%3</b> where the training time above assumes %4. %5</p>")
                .arg(q(formatDuration(t.seconds)), n(t.tokensPerSecond), n(t.mfu), n(assumedMfu),
                     code(t.mfuFormula));
    text += tr("<p>Each op takes max(FLOPs / the achievable FLOP/s at its shape and dtype, bytes / the "
               "achievable bandwidth), plus its dispatch overhead; the collectives the framework does not "
               "overlap and the pipeline bubble add to the critical path: %1. Rates from %2.</p>")
                .arg(q(stepSecondsByKindText(t)), q(t.basis));
    text += tr("<p><b>How far to trust it:</b> %1 (docs/benchmarks.md, “Step time, predicted”).</p>")
                .arg(q(std::string(stepTimeValidationNote(t.basis))));
    text += QStringLiteral("<table cellspacing=\"4\"><tr><th align=\"left\">%1</th><th>%2</th><th>%3</th>"
                           "<th align=\"right\">%4</th><th align=\"left\">%5</th></tr>")
                .arg(tr("op"), tr("phase"), tr("bound by"), tr("seconds"), tr("formula"));
    for (const StepTimeRow* row : largestStepRows(t, kExplainedRows))
        text += QStringLiteral("<tr>%1%2%3%4%5</tr>")
                    .arg(cell(q(row->name)), cell(q(std::string(stepTimePhaseName(row->phase)))),
                         cell(q(std::string(stepTimeKindName(row->kind)))),
                         numberCell(q(formatDuration(row->seconds))), cell(code(row->formula)));
    text += QStringLiteral("</table>");
    if (t.ledger.size() > kExplainedRows)
        text += tr("<p>The %1 largest of %2 rows; <code>napkin-cli account --json</code> lists every one "
                   "(<code>step_time.ledger</code>).</p>")
                    .arg(kExplainedRows)
                    .arg(t.ledger.size());
    if (!t.notModelled.empty()) {
        QStringList left;
        for (const std::string& item : t.notModelled)
            left << q(item);
        text += tr("<p>Not modelled: %1.</p>").arg(left.join(QStringLiteral("; ")));
    }
    return text;
}
