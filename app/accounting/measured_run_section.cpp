// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/measured_run_section.h"

#include "app/accounting/explain_html.h"
#include "engine/measured/measured_overheads.h"
#include "engine/report/cli_command_line.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <cmath>

using namespace napkin;
using explain_html::heading;
using explain_html::q;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("MeasuredRunSection", text);
}

// "95,152 B (95.15 kB)": every byte, which the comparison is exact to, then the rounded figure.
QString exactBytes(double bytes, ByteUnits units) {
    const QString digits =
        std::abs(bytes) < 1e15
            ? QLocale(QLocale::English).toString(static_cast<qlonglong>(std::llround(bytes)))
            : q(formatExact(bytes));
    return tr("%1 B (%2)").arg(digits, q(formatBytes(bytes, units)));
}

QString signedBytes(double bytes, ByteUnits units) {
    return (bytes > 0 ? QStringLiteral("+") : QString()) + exactBytes(bytes, units);
}

double attributedBytes(const MeasuredComparison& c) {
    double total = 0;
    for (const AttributedBytes& a : c.attributed)
        total += a.bytes;
    return total;
}

} // namespace

MeasuredComparison compareMeasuredRun(const AccountingResult& result, const MemoryTimeline& predicted,
                                      const MeasuredRun& run, const MeasuredTimeline& timeline) {
    const std::vector<MeasuredOverhead> overheads = measuredOverheadsOf(result.overheads, timeline.device);
    return compareWithMeasured(predicted, run, timeline, overheads);
}

MeasuredRunCurve measuredRunCurve(const MemoryTimeline& predicted, const MeasuredTimeline& timeline,
                                  const QString& label) {
    MeasuredRunCurve curve;
    curve.label = label;
    const std::vector<AlignedSample> samples = alignToPredicted(predicted, timeline);
    curve.x.reserve(static_cast<qsizetype>(samples.size()));
    curve.allocated.reserve(curve.x.capacity());
    for (const AlignedSample& s : samples) {
        curve.x.push_back(s.x);
        curve.allocated.push_back(s.allocatedBytes);
    }
    if (timeline.hasReserved)
        for (const AlignedSample& s : samples)
            curve.reserved.push_back(std::max(0.0, s.reservedBytes));
    return curve;
}

QString measuredRunNote(const MeasuredComparison& c, const QString& label, ByteUnits units) {
    const QString device = QString::fromStdString(measuredDeviceName(c.device));
    QString text = tr("Measured run %1 (%2): peak %3 allocated against %4 predicted, %5: %6 named, %7 "
                      "unexplained.")
                       .arg(label, device, QString::fromStdString(formatBytes(c.measuredPeakBytes, units)),
                            QString::fromStdString(formatBytes(c.predictedPeakBytes, units)),
                            signedBytes(c.differenceBytes, units), signedBytes(attributedBytes(c), units),
                            signedBytes(c.unexplainedBytes, units));
    if (c.hasReserved)
        text += tr(" Reserved peak %1, %2 unexplained.")
                    .arg(QString::fromStdString(formatBytes(c.measuredReservedPeakBytes, units)),
                         signedBytes(c.unexplainedReservedBytes, units));
    // What persists across steps depends on the setup alone: a run made with another setup is said to be
    // one, first, rather than left as a wall of "unexplained" (measured_comparison.h).
    if (c.setupDifferenceBytes && c.measuredStartBytes)
        text = tr("The run's setup probably differs from this page's: its step started with %1 where this "
                  "setup keeps %2 between steps (%3). ")
                   .arg(QString::fromStdString(formatBytes(*c.measuredStartBytes, units)),
                        QString::fromStdString(formatBytes(c.predictedStartBytes, units)),
                        signedBytes(*c.setupDifferenceBytes, units)) +
               text;
    return text;
}

QString explainMeasuredRun(const MeasuredComparison& c, const MeasuredRun& run, const StepTime& stepTime,
                           const GpuSpec& gpu, const QString& label, ByteUnits units) {
    QString text = heading(tr("Your measured run"));
    text += tr("<p>%1: %2 on %3, %4 samples; %5.</p>")
                .arg(label.toHtmlEscaped(), q(run.format), q(measuredDeviceName(c.device)))
                .arg(c.measuredSamples)
                .arg(q(run.note));
    if (!run.setupCommand.empty()) // scripts/measure-run.py says what the run was made with
        text += tr("<p>The run was made with <code>%1</code>.</p>").arg(q(run.setupCommand));
    if (c.setupDifferenceBytes && c.measuredStartBytes)
        text += tr("<p>Its step started holding %1 (less what it names), where this page's setup keeps %2 "
                   "between steps (weights, master copy, optimizer state): %3. What persists across steps "
                   "depends on the setup alone, so the run's setup probably differs from this page's, and "
                   "most of the difference below is that.</p>")
                    .arg(exactBytes(*c.measuredStartBytes, units), exactBytes(c.predictedStartBytes, units),
                         signedBytes(*c.setupDifferenceBytes, units));
    text += tr("<p>Predicted peak <b>%1</b> at %2; measured peak <b>%3</b> allocated%4. Difference "
               "(measured − predicted): <b>%5</b>.</p>")
                .arg(exactBytes(c.predictedPeakBytes, units), q(c.predictedPeakEvent),
                     exactBytes(c.measuredPeakBytes, units),
                     c.measuredPeakPhase.empty() ? QString() : tr(", in %1").arg(q(c.measuredPeakPhase)),
                     signedBytes(c.differenceBytes, units));
    text += QStringLiteral("<table cellspacing=\"4\"><tr><th align=\"left\">%1</th><th align=\"right\">%2"
                           "</th><th align=\"left\">%3</th></tr>")
                .arg(tr("part of the difference"), tr("bytes"), tr("source"));
    for (const AttributedBytes& a : c.attributed)
        text += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td>%3</td></tr>")
                    .arg(q(a.name), signedBytes(a.bytes, units), q(a.source));
    text += QStringLiteral("<tr><td><b>%1</b></td><td align=\"right\"><b>%2</b></td><td>%3</td></tr></table>")
                .arg(tr("unexplained"), signedBytes(c.unexplainedBytes, units),
                     tr("the difference less every named line"));
    if (c.device.type == MeasuredDeviceType::cpu)
        text += tr("<p>A run on the CPU takes none of the overhead ledger's lines: it has no CUDA context, "
                   "no cuBLAS workspace and no caching allocator.</p>");
    if (c.hasReserved)
        text += tr("<p>Reserved: measured peak %1; the prediction with every named line and the ledger's "
                   "reserved lines %2; unexplained %3.</p>")
                    .arg(exactBytes(c.measuredReservedPeakBytes, units),
                         exactBytes(c.predictedReservedBytes, units),
                         signedBytes(c.unexplainedReservedBytes, units));
    text +=
        tr("<p>By phase (napkin's largest event; the run's largest sample in the ranges it named):</p><ul>");
    for (const PhaseComparison& p : c.phases) {
        const QString measured =
            p.measuredPeakBytes ? tr("%1 measured, %2")
                                      .arg(exactBytes(*p.measuredPeakBytes, units),
                                           signedBytes(*p.measuredPeakBytes - p.predictedPeakBytes, units))
                                : tr("not named by the run");
        text +=
            tr("<li>%1: %2 predicted at %3; %4</li>")
                .arg(q(p.name), exactBytes(p.predictedPeakBytes, units), q(p.predictedPeakEvent), measured);
    }
    return text + QStringLiteral("</ul>") +
           explainMeasuredTime(compareTimeWithMeasured(stepTime, gpu, run, c.device));
}

namespace {

QString secondsCell(const std::optional<double>& seconds, const QString& unset) {
    return explain_html::numberCell(seconds ? q(formatDuration(*seconds)) : unset);
}

QString timeRow(const PhaseTimeComparison& p, bool predicted) {
    QString largest;
    if (!p.largestRows.empty())
        largest = tr("%1 (%2, %3)")
                      .arg(q(p.largestRows.front().name),
                           q(std::string(stepTimeKindName(p.largestRows.front().kind))),
                           q(formatDuration(p.largestRows.front().seconds)));
    return QStringLiteral("<tr>%1%2%3%4%5</tr>")
        .arg(explain_html::cell(q(p.phase)),
             secondsCell(p.predictedSeconds, predicted ? tr("not modelled") : QStringLiteral("–")),
             secondsCell(p.measuredSeconds, tr("not named")),
             explain_html::numberCell(p.ratio ? q(formatNumber(*p.ratio)) : QStringLiteral("–")),
             explain_html::cell(largest));
}

} // namespace

QString explainMeasuredTime(const MeasuredTimeComparison& t) {
    QString text =
        tr("<p><b>Time by phase.</b> Predicted for %1%2; measured: %3.</p>")
            .arg(q(t.predictedFor), t.predicted ? tr(" from %1").arg(q(t.basis)) : QString(),
                 t.stepRange.empty()
                     ? tr("nothing (%1)").arg(q(t.whyNotMeasured))
                     : tr("the durations the trace gives its ranges inside %1").arg(q(t.stepRange)));
    if (!t.predicted)
        text += tr("<p>The step time is not predicted: %1.</p>").arg(q(t.whyNotPredicted));
    if (!t.comparable) // a GPU's figures against a CPU run: said where the figures are, not hidden
        text += tr("<p><b>Not comparable:</b> %1.</p>").arg(q(t.comparability));
    if (!t.predicted && t.stepRange.empty())
        return text;
    text += QStringLiteral(
                "<table cellspacing=\"4\"><tr><th align=\"left\">%1</th><th align=\"right\">%2</th>"
                "<th align=\"right\">%3</th><th align=\"right\">%4</th><th align=\"left\">%5</th></tr>")
                .arg(tr("phase"), tr("predicted"), tr("measured"), tr("predicted / measured"),
                     tr("largest predicted row"));
    for (const PhaseTimeComparison& p : t.phases)
        text += timeRow(p, t.predicted);
    text += timeRow(t.step, t.predicted) + QStringLiteral("</table>");
    QStringList outside;
    if (t.predicted && t.predictedOutsidePhasesSeconds > 0)
        outside
            << tr("the prediction's communication and pipeline bubble, %1, lie in the step but in no phase")
                   .arg(q(formatDuration(t.predictedOutsidePhasesSeconds)));
    if (t.measuredOutsidePhasesSeconds)
        outside << tr("the run spent %1 of its step between its phase ranges (the loop itself, the profiler)")
                       .arg(q(formatDuration(*t.measuredOutsidePhasesSeconds)));
    if (!outside.isEmpty())
        text += QStringLiteral("<p>%1.</p>").arg(outside.join(QStringLiteral("; ")));
    return text;
}

std::optional<Scenario> measuredRunSetup(const MeasuredRun& run) {
    if (run.setupScenario.empty())
        return std::nullopt;
    ScenarioParse parsed = parseScenario(run.setupScenario);
    return std::move(parsed.scenario);
}

bool hasRunSetup(const AccountingInput& input, const Scenario& runSetup) {
    return accountCommandLine(input) == accountCommandLine(runSetup.accounting.input);
}
