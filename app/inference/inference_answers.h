// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Inference page's answers: each number with the engine's formula beside it, as the accounting
// page's answers panel shows them.
#include "engine/inference/inference_batch_sweep.h"
#include "engine/steptime/inference_time.h"
#include "widgets/controls/answer_notices.h"

#include <QStringList>
#include <QWidget>

class AnswersGrid;
class QLabel;

class InferenceAnswers : public QWidget {
    Q_OBJECT
public:
    /// Row keys, in display order.
    static const QStringList& keys();

    explicit InferenceAnswers(QWidget* parent = nullptr);

    /// Shows a valid result and hides any error message; `times` the prefill and decode predicted from the
    /// page's hardware profile (inference_time.h), beside the result's roofline bounds.
    void setResult(const napkin::InferenceInput& input, const napkin::InferenceResult& result,
                   const napkin::BatchSweep& sweep, const napkin::InferenceTimes& times);
    /// Says why the current input is refused; the last result stays on screen, greyed as stale until the
    /// next setResult().
    void showError(const QString& message);
    /// The answers shown are the last valid result, not the controls' current setup (greyed).
    bool isStale() const;

    /// The value / formula text of row `key` ("weights", "kvPerToken", "kvPerSequence", "kvCache",
    /// "memoryPerGpu", "fits", "prefill", "prefillPredicted", "decodeStep", "tokensPerSecond",
    /// "decodePredicted", "intensity", "crossover", "maxBatch", "maxContext"), and "costPerMillionTokens"
    /// after them.
    QString valueText(const QString& key) const;
    QString formulaText(const QString& key) const;
    QString errorText() const;
    /// What the GPU cannot do with the weight format (capability_rules.h); hidden when empty.
    void setWarnings(const QStringList& warnings);
    QString warningsText() const;

private:
    AnswerNotices m_notices;
    AnswersGrid* m_grid;
};
