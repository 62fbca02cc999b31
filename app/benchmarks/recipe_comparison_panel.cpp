// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/recipe_comparison_panel.h"

#include "app/benchmarks/export_buttons.h"
#include "app/benchmarks/result_table.h"
#include "app/export/save_file.h"
#include "engine/benchmarks/cruncher_step_time.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/training_report.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/series_chart.h"
#include "widgets/controls/text_tone.h"
#include "widgets/controls/wrapping_column.h"
#include "widgets/text/engine_text.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <iterator>

using namespace napkin;

namespace {

// A recipe's place among those compared: its colour stays put whichever recipes a device refuses.
QColor recipeColor(const std::string& recipe) {
    const auto& all = comparedRecipes();
    return SeriesChart::defaultColor(
        static_cast<int>(std::distance(all.begin(), std::find(all.begin(), all.end(), recipe))));
}

std::vector<LossCurve> lossCurves(const std::vector<RecipeLosses>& curves) {
    std::vector<LossCurve> out;
    out.reserve(curves.size());
    for (const RecipeLosses& c : curves)
        out.push_back({toQString(c.recipe), c.losses, recipeColor(c.recipe)});
    return out;
}

// The most a run held at once over one step, predicted and measured, and which figure that is: a trainer
// that allocates every buffer up front (CUDA) records no step, and what it holds is the components' sum.
struct PeakMemory {
    double predicted = 0, measured = 0;
    QString basis;
};

PeakMemory peakMemory(const MemoryComparison& m) {
    if (!m.measuredTimeline.empty())
        return {m.predictedTimeline.peakBytes, m.peakMeasuredBytes,
                QObject::tr("the most held at once over one step: the predicted timeline's peak and the "
                            "trainer's ledger's")};
    return {
        m.total.predicted, m.total.measured,
        QObject::tr("parameters, gradients, master weights, optimizer state and activations: this trainer "
                    "allocates every buffer before the first step, so their sum is what it holds")};
}

QString exactBytes(double bytes) {
    return toQString(formatExact(bytes)) + QObject::tr(" B");
}

} // namespace

RecipeComparisonPanel::RecipeComparisonPanel(QWidget* parent)
    : QGroupBox(tr("Recipes side by side"), parent)
    , m_chart(new LossChart(this))
    // Headers on two lines: on one, the numbers' columns came to 1029 px in presentation type, wider than
    // a 1024-pixel projector's page.
    , m_table(
          makeResultTable({tr("recipe"), tr("step\n(median)"), tr("MFU against\nits own peak"),
                           tr("memory\npredicted"), tr("memory\nmeasured"), tr("final\nloss"), tr("status")},
                          this))
    , m_note(new QLabel(this))
    , m_predicted(new QLabel(this)) {
    setObjectName(QStringLiteral("recipeComparison"));
    m_table->setObjectName(QStringLiteral("recipes"));
    m_chart->setTitle(tr("Training loss per recipe"));
    m_chart->setLegendShown(true);
    m_note->setWordWrap(true);
    setTextTone(m_note, TextTone::note);
    m_note->setText(tr("Compare recipes trains the Cruncher above once in each recipe this device runs, each "
                       "from the same seeds (the same data and initial weights). MFU is against each "
                       "recipe's own peak: fp32's, tf32's, bf16's or fp16's."));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    addExportButtons(buttons, this,
                     {[this](const QString& path) { return exportChartPng(path); },
                      [this](const QString& path) { return exportCsv(path); },
                      [this](const QString& path) { return exportJson(path); }, QStringLiteral("recipe-loss"),
                      QStringLiteral("train-recipes"), tr("Export the recipes' loss chart as PNG"),
                      tr("Export the comparison: the same document as napkin-cli bench train --precision "
                         "LIST --json")});
    // The chart over the table, each the panel's whole width: beside the table (a FlowSplitter) the chart
    // got its bare minimum, a plot 180 px wide, and the status column too little room for a refusal's
    // reason; given more, the pair was wider than a 1024-pixel projector's page in presentation type.
    // In a column that asks for its wrapped note's lines: counted as one line, the note took the chart's
    // legend row from under it.
    auto* column = new WrappingColumn(this);
    auto* rows = new QVBoxLayout(column);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->addWidget(m_note);
    rows->addWidget(m_chart, 3);
    rows->addWidget(m_table, 2);
    // A line per recipe under the table, not a column: one more column made the table wider than a
    // 1024-pixel projector's page in presentation type.
    m_predicted->setObjectName(QStringLiteral("predictedSteps"));
    m_predicted->setWordWrap(true);
    m_predicted->setTextInteractionFlags(Qt::TextSelectableByMouse);
    setTextTone(m_predicted, TextTone::note);
    m_predicted->hide();
    rows->addWidget(m_predicted);
    rows->addLayout(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(column);
    const QString peak =
        tr("The most the run held at once over one step: the predicted timeline's peak and the "
           "trainer's ledger's (on a trainer that allocates every buffer up front, the "
           "components' sum)");
    for (const Column c : {peakPredicted, peakMeasured})
        m_table->horizontalHeaderItem(c)->setToolTip(peak);
    showComparison(std::nullopt);
}

void RecipeComparisonPanel::setRefusedRecipes(const std::vector<RecipeRefusal>& refused) {
    m_refused = refused;
    if (!m_comparison)
        showComparison(std::nullopt);
}

void RecipeComparisonPanel::showRunningComparison(const RecipeComparison& plan,
                                                  const std::vector<RecipeLosses>& curves, long steps) {
    m_comparison.reset();
    m_chart->setCurves(lossCurves(curves), steps);
    std::vector<QString> statuses;
    for (const std::string& name : comparedRecipes()) {
        const auto it = std::find_if(curves.begin(), curves.end(),
                                     [&name](const RecipeLosses& c) { return c.recipe == name; });
        if (it == curves.end())
            statuses.push_back(tr("waiting"));
        else if (std::next(it) != curves.end() || it->losses.size() == static_cast<std::size_t>(steps))
            statuses.push_back(tr("trained; its figures come when the comparison ends"));
        else
            statuses.push_back(tr("training: step %1 of %2").arg(it->losses.size()).arg(steps));
    }
    fillTable(plan, statuses);
}

void RecipeComparisonPanel::showComparison(const std::optional<RecipeComparison>& comparison) {
    m_comparison = comparison;
    if (!comparison) {
        m_chart->setCurves({});
        RecipeComparison idle;
        idle.refused = m_refused;
        fillTable(idle, std::vector<QString>(comparedRecipes().size(), tr("not run yet")));
        return;
    }
    std::vector<RecipeLosses> curves;
    for (const TrainingRun& run : comparison->runs)
        curves.push_back({trainingRecipeName(run.request.config), run.losses});
    m_chart->setCurves(lossCurves(curves),
                       comparison->runs.empty() ? 0 : comparison->runs.front().request.steps);
    // A recipe asked for but not run: the comparison was cancelled before it.
    fillTable(*comparison, std::vector<QString>(comparedRecipes().size(), tr("not run: the comparison was "
                                                                             "cancelled before it")));
}

void RecipeComparisonPanel::fillTable(const RecipeComparison& comparison,
                                      const std::vector<QString>& statuses) {
    m_table->setRowCount(0);
    QStringList predicted;
    for (const TrainingRun& run : comparison.runs)
        predicted << toQString(trainingRecipeName(run.request.config) + " " + predictedStepLine(run));
    m_predicted->setText(predicted.join(QLatin1Char('\n')));
    m_predicted->setVisible(!predicted.isEmpty());
    const std::vector<std::string>& all = comparedRecipes();
    for (std::size_t i = 0; i < all.size(); ++i) {
        const std::string& name = all[i];
        const auto run =
            std::find_if(comparison.runs.begin(), comparison.runs.end(), [&name](const TrainingRun& r) {
                return trainingRecipeName(r.request.config) == name;
            });
        if (run != comparison.runs.end()) {
            addRunRow(*run);
            continue;
        }
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        setResultCell(m_table, row, recipe, toQString(name));
        const auto refused = std::find_if(comparison.refused.begin(), comparison.refused.end(),
                                          [&name](const RecipeRefusal& r) { return r.recipe == name; });
        // Refused recipes are listed with the backend's own reason, never left out.
        setResultCell(m_table, row, status,
                      refused != comparison.refused.end() ? tr("refused: %1").arg(toQString(refused->reason))
                                                          : statuses[i]);
    }
}

void RecipeComparisonPanel::addRunRow(const TrainingRun& run) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const CruncherConfig& c = run.request.config;
    const QString dtype = toQString(trainingComputeDtype(c));
    setResultCell(m_table, row, recipe, toQString(trainingRecipeName(c)));
    setResultCell(
        m_table, row, stepTime, toQString(formatDuration(run.stepTiming.medianSeconds)),
        tr("%1 to %2 (20th to 80th percentile) over %n timed step(s)", nullptr, run.stepTiming.samples)
            .arg(toQString(formatDuration(run.stepTiming.p20Seconds)),
                 toQString(formatDuration(run.stepTiming.p80Seconds))));
    if (run.mfu && run.promisedFlopsPerSecond)
        setResultCell(m_table, row, mfu,
                      tr("%1 % of %2 (%3)")
                          .arg(*run.mfu * 100, 0, 'g', 3)
                          .arg(toQString(formatFlops(*run.promisedFlopsPerSecond, true)), dtype),
                      tr("%1 per step at %2 (%3), against the %4 peak: %5")
                          .arg(toQString(formatFlops(run.flopsPerStep)),
                               toQString(formatFlops(run.flopsPerSecond, true)), toQString(run.mfuBasis),
                               dtype, toQString(run.device.promisedBasis)));
    else
        setResultCell(m_table, row, mfu, tr("— (no %1 peak)").arg(dtype),
                      tr("this device names no %1 peak to measure the run against").arg(dtype));
    const PeakMemory peak = peakMemory(run.memory);
    setResultCell(m_table, row, peakPredicted, bytesText(peak.predicted),
                  exactBytes(peak.predicted) + QLatin1String(": ") + peak.basis);
    setResultCell(m_table, row, peakMeasured, bytesText(peak.measured),
                  exactBytes(peak.measured) + QLatin1String(": ") + peak.basis);
    if (!run.losses.empty())
        setResultCell(m_table, row, finalLoss, QString::number(run.losses.back(), 'g', 4),
                      tr("loss %1 at step %2, %3 at step %4")
                          .arg(run.losses.front(), 0, 'g', 6)
                          .arg(run.firstStep)
                          .arg(run.losses.back(), 0, 'g', 6)
                          .arg(run.firstStep + static_cast<long>(run.losses.size()) - 1));
    // Short: beside the refusals' reasons a longer status wrapped onto lines the table had no room for.
    QString state = peak.predicted == peak.measured
                        ? tr("done; memory to the byte")
                        : tr("done; memory off by %1").arg(exactBytes(peak.measured - peak.predicted));
    if (run.cancelled)
        state = tr("cancelled after %1 of %2 steps").arg(run.losses.size()).arg(run.request.steps);
    setResultCell(m_table, row, status, state);
}

QString RecipeComparisonPanel::exportChartPng(const QString& path) const {
    return saveChart(*m_chart, path, QSize(1600, 900));
}

QString RecipeComparisonPanel::exportCsv(const QString& path) const {
    if (!m_comparison || m_comparison->runs.empty())
        return tr("no recipe comparison to export yet: compare recipes first");
    return saveFile(path, QByteArray::fromStdString(trainingRecipesCsv(m_comparison->runs)));
}

QString RecipeComparisonPanel::exportJson(const QString& path) const {
    if (!m_comparison || m_comparison->runs.empty())
        return tr("no recipe comparison to export yet: compare recipes first");
    return saveFile(path, QByteArray::fromStdString(jsonText(trainingRecipesJson(m_comparison->runs))));
}
