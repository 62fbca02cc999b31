// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The answers a lecturer reads out: each number with the formula that produced it beside it.
#include "app/accounting/step_time_answer.h"
#include "engine/accounting/accounting.h"
#include "engine/allocator/fit_verdict.h"
#include "engine/measured/measured_comparison.h"
#include "engine/numerics/quantity_format.h"
#include "widgets/controls/answer_notices.h"

#include <QWidget>

class AnswersGrid;
class QLabel;

class AnswersPanel : public QWidget {
    Q_OBJECT
public:
    /// Row keys, in display order.
    static const QStringList& keys();

    explicit AnswersPanel(QWidget* parent = nullptr);

    /// Shows a valid result, its step's peak and the verdict on it, and hides any error message.
    void setResult(const napkin::AccountingResult& result, napkin::ByteUnits units);
    /// The verdict of row "fits" as the engine judges it (fit_verdict.h: on reserved where the simulated
    /// allocator applies, else on allocated), after setResult() of the same `result`.
    void setFitVerdict(const napkin::FitVerdict& verdict, const napkin::AccountingResult& result,
                       napkin::ByteUnits units);
    /// The user's measured run beside the prediction (rows "measuredPeak" and "measuredDifference"), or
    /// none (`comparison` null: the rows hide).
    void setMeasuredRun(const napkin::MeasuredComparison* comparison, const QString& label,
                        napkin::ByteUnits units);
    /// The step-time model's answer (row "stepTime"): predicted step and MFU beside the assumed MFU.
    void setStepTime(const StepTimeAnswer& answer);
    /// Shows why the current input is invalid; the last result stays on screen, greyed as stale until the
    /// next setResult().
    void showError(const QString& message);
    /// The answers shown are the last valid result, not the controls' current setup (greyed).
    bool isStale() const;
    /// What the GPU cannot do with this setup (capability_rules.h), above the answers; hidden when empty.
    void setWarnings(const QStringList& warnings);
    QString warningsText() const;

    /// The value / formula text of row `key` ("parameters", "activeParameters", "bytesPerParameter",
    /// "memoryPerGpu", "peakOverStep", "fits", "flopsPerStep", "trainingFlops", "trainingTime", "stepTime", "hfu",
    /// "gpuDays", "layout", "communication", "maxParameters", "maxParametersPooled", "maxBatch",
    /// "gpuHours", "runCost", "energy", "emissions").
    QString valueText(const QString& key) const;
    QString formulaText(const QString& key) const;
    QString errorText() const;
    QString notesText() const;

private:
    void setLayoutRows(const napkin::AccountingResult& result);
    void setOverheadRows(const napkin::AccountingResult& result, napkin::ByteUnits units);

    AnswerNotices m_notices;
    AnswersGrid* m_grid;
    QLabel* m_notes;
    void setRunCostRows(const napkin::AccountingResult& result);
};
