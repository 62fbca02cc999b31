// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Inference page: serving a transformer (published, a shipped config.json, or one the user opened).
// Controls on the left; on the right the memory bar (weights, KV cache, activations against the GPU's
// memory), decode tokens/s against batch size with the memory- and compute-bound regimes, and the answers
// with their formulas. Every change recomputes synchronously (a sweep is a hundred accountings, about a
// millisecond).
#include "engine/models/checkpoint_format.h"
#include "engine/inference/inference_batch_sweep.h"
#include "engine/report/cli_command_line.h"
#include "engine/scenario/scenario.h"
#include "engine/steptime/inference_time.h"

#include <QMetaType>
#include <QStringList>
#include <QWidget>

#include <optional>

class DecodeThroughputChart;
class ExplainPane;
class InferenceAnswers;
class InferenceControls;
class InferenceMemoryChart;

Q_DECLARE_METATYPE(napkin::InferenceInput)

class InferencePage : public QWidget {
    Q_OBJECT
public:
    explicit InferencePage(QWidget* parent = nullptr);

    /// The last valid input and result (what the charts show), and the current error ("" when valid).
    const std::optional<napkin::InferenceInput>& lastInput() const { return m_input; }
    const std::optional<napkin::InferenceResult>& lastResult() const { return m_result; }
    QString lastError() const { return m_error; }
    /// The prefill and decode predicted for the last valid input (from the app's hardware profile where it
    /// serves the page's GPU, else the GPU's published one).
    const napkin::InferenceTimes& lastTimes() const { return m_times; }

    /// Every control, for a scenario file; and back (recomputes once). Never warns: the loader has
    /// already refused what the controls cannot show.
    napkin::InferenceScenario scenario() const;
    QStringList applyScenario(const napkin::InferenceScenario& scenario);
    /// Serves `model` (a config.json the user opened), listed as `label`, at its own context; recomputes.
    /// `checkpoint` (the config's quantization_config) is shown as the weight format.
    void setOwnModel(const napkin::ModelSpec& model, const QString& label,
                     const std::optional<napkin::CheckpointFormat>& checkpoint = std::nullopt);
    /// How the opened model is named on a command line (`--config PATH`): exported charts' settings line
    /// names it so while the page shows it, as Copy as command does.
    void setOpenedModelCommand(std::optional<napkin::CommandModelBase> command) {
        m_openedCommand = std::move(command);
    }
    /// Whether the model box shows the opened config's entry (its model, maybe edited).
    bool showsOpenedModel() const;

    InferenceControls* controls() const { return m_controls; }
    /// The left panel with the controls, which a page export leaves out.
    QWidget* controlPanel() const { return m_controlPanel; }
    InferenceMemoryChart* memoryChart() const { return m_memoryChart; }
    DecodeThroughputChart* throughputChart() const { return m_throughputChart; }
    InferenceAnswers* answers() const { return m_answers; }
    /// "How is this computed?": the page's formulas with their values.
    ExplainPane* explainPane() const { return m_explain; }

public slots:
    /// Validates the controls' input; shows the error next to its control, or accounts and updates
    /// the charts and the answers and emits settingChanged.
    void recompute();

signals:
    /// A new valid input was accounted, with its result (the roofline page draws the result's decode and
    /// prefill points as they are, never accounting the setting again).
    void settingChanged(const napkin::InferenceInput& input, const napkin::InferenceResult& result);

private:
    /// Greys the charts and the derivation with `reason` while they show the last valid result; empty:
    /// they match the controls again.
    void showStale(const QString& reason);

    InferenceControls* m_controls;
    InferenceMemoryChart* m_memoryChart;
    DecodeThroughputChart* m_throughputChart;
    InferenceAnswers* m_answers;
    ExplainPane* m_explain;
    QWidget* m_controlPanel = nullptr;
    std::optional<napkin::InferenceInput> m_input;
    std::optional<napkin::InferenceResult> m_result;
    napkin::InferenceTimes m_times;
    QString m_error;
    std::optional<napkin::CommandModelBase> m_openedCommand;
};
