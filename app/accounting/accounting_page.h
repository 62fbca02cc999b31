// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The live accounting page: controls on the left; the memory and FLOP charts and the answers on the
// right. Every change recomputes synchronously (the engine takes microseconds) and updates all three.
#include "engine/accounting/accounting.h"
#include "engine/allocator/fit_verdict.h"
#include "engine/measured/measured_comparison.h"
#include "engine/measured/measured_timeline.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/cli_command_line.h"
#include "engine/scenario/scenario.h"

#include <QStringList>
#include <QWidget>

#include <optional>

class AccountingControls;
class AnswersPanel;
class ExplainPane;
class FlopChart;
class LayoutPlanDialog;
class MemoryChart;
class MemoryTimelineChart;
class QComboBox;
class QLabel;
class QPushButton;
class ReservedLine;
class QSettings;
struct Preset;

class AccountingPage : public QWidget {
    Q_OBJECT
public:
    explicit AccountingPage(QWidget* parent = nullptr);

    /// Sets every control from the preset and recomputes.
    void applyPreset(const Preset& preset);
    /// Shows `model` (a config.json the user opened) as the transformer, listed as `label` in the preset
    /// box; the training and hardware stay. Recomputes. The box keeps one such entry; the next replaces it.
    void setOwnModel(const napkin::ModelSpec& model, const QString& label);
    /// How the opened model is named on a command line (`--config PATH`): exported charts' settings line
    /// names it so while the page shows it, as Copy as command does.
    void setOpenedModelCommand(std::optional<napkin::CommandModelBase> command) {
        m_openedCommand = std::move(command);
    }
    /// Whether the preset box shows the opened config's entry (its model, maybe edited).
    bool showsOpenedModel() const;
    /// GB (1e9) or GiB (2^30) in the memory chart and the answers.
    void setByteUnits(napkin::ByteUnits units);

    /// The last valid result (what the charts show), and the current validation error (empty when valid).
    const std::optional<napkin::AccountingResult>& lastResult() const { return m_result; }
    /// The fit verdict shown with lastResult() (engine/allocator/fit_verdict.h).
    const std::optional<napkin::FitVerdict>& lastFitVerdict() const { return m_fitVerdict; }
    QString lastError() const { return m_error; }

    /// Every control of the page, for a scenario file; and back (page_scenarios.cpp). Applying
    /// recomputes once; an unknown preset id is shown as no preset and returned as a warning.
    napkin::AccountingScenario scenario() const;
    QStringList applyScenario(const napkin::AccountingScenario& scenario);

    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

    AccountingControls* controls() const { return m_controls; }
    /// The left panel (preset, units and the controls), which a page export leaves out.
    QWidget* controlPanel() const { return m_controlPanel; }
    MemoryChart* memoryChart() const { return m_memoryChart; }
    /// Memory over one training step: the predicted timeline against the capacity and the sum.
    MemoryTimelineChart* timelineChart() const { return m_timelineChart; }
    FlopChart* flopChart() const { return m_flopChart; }
    AnswersPanel* answers() const { return m_answers; }
    QComboBox* presetBox() const { return m_presets; }
    /// "Find the fastest layout…": opens the layout search over the page's setup (LayoutPlanDialog).
    QPushButton* planButton() const { return m_plan; }
    /// Sets the layout controls (tp, pp, v, cp, ep, sp, micro-batches, batch, recompute, ZeRO, shard group,
    /// attention kernel) to `input`'s, the rest as they are, and recomputes: a layout the search chose.
    void applyLayout(const napkin::AccountingInput& input);
    /// Opens the layout search's dialog (non-modal; it deletes itself when closed) and returns it.
    LayoutPlanDialog* findFastestLayout();
    QComboBox* unitsBox() const { return m_units; }
    /// "How is this computed?": the derivation of the answers with the current numbers.
    ExplainPane* explainPane() const { return m_explain; }

    /// A run the user measured (a profiler trace or a CUDA memory snapshot, engine/measured/), drawn over
    /// the timeline and compared in the answers until cleared or replaced; `label` names it (its file).
    /// Recomputes. The run's device: its only one, or its first GPU (engine's chooseDevice).
    void setMeasuredRun(napkin::MeasuredRun run, const QString& label);
    /// Says under the timeline why a file was not opened; the run shown before, if any, stays.
    void showMeasuredRunError(const QString& message);
    /// Takes the measured run off the chart and the answers.
    void clearMeasuredRun();
    bool hasMeasuredRun() const { return m_measuredRun.has_value(); }
    /// The comparison shown (null without a run).
    const napkin::MeasuredComparison* measuredComparison() const {
        return m_measuredComparison ? &*m_measuredComparison : nullptr;
    }
    /// The line under the timeline: the comparison's summary, or why a file was refused.
    QLabel* measuredRunNote() const { return m_measuredNote; }
    /// Sets the controls to the setup the measured run was made with (measure-run.py writes it in the
    /// trace), as a preset enters one, adding a GPU of the user's own that it names; one undoable step
    /// like any click. Shown as the "Use the run's setup" button while the page's setup differs.
    void useRunSetup();
    QPushButton* useRunSetupButton() const { return m_useRunSetup; }
    ReservedLine* reservedLine() const { return m_reservedLine; }

signals:
    /// Whether a measured run is shown changed (File ▸ Clear measured run follows it).
    void measuredRunChanged(bool shown);

public slots:
    /// Validates the controls' input; shows the error, or accounts and updates charts and answers.
    void recompute();

private:
    /// "GPT-3 … (modified)" in the preset box while the controls differ from what the preset entered.
    void showPresetModified();
    /// The preset box's entry for a config the user opened, added under a header when first needed.
    int ownModelEntry(const QString& label);
    void onPresetChosen(int index);
    void showMeasuredNote(napkin::ByteUnits units);
    /// Greys the charts and the derivation with `reason` while they show the last valid result; empty:
    /// they match the controls again.
    void showStale(const QString& reason);

    // Declared (and so created) in tab order: preset and units first, then the controls.
    QComboBox* m_presets;
    QComboBox* m_units;
    AccountingControls* m_controls;
    MemoryChart* m_memoryChart;
    FlopChart* m_flopChart;
    MemoryTimelineChart* m_timelineChart;
    AnswersPanel* m_answers;
    ReservedLine*
        m_reservedLine; ///< the timeline's predicted reserved line, simulated once the controls rest
    ExplainPane* m_explain = nullptr;
    QWidget* m_controlPanel = nullptr;
    std::optional<napkin::AccountingResult> m_result;
    std::optional<napkin::FitVerdict> m_fitVerdict;
    /// The controls as the chosen preset left them: an edit away from these marks the preset "(modified)".
    std::optional<napkin::AccountingInput> m_presetInput;
    /// The last config.json opened, for when its entry is chosen again.
    std::optional<napkin::ModelSpec> m_ownModel;
    QString m_error;
    std::optional<napkin::CommandModelBase> m_openedCommand;
    std::optional<napkin::MeasuredRun> m_measuredRun;
    QString m_measuredLabel;
    QString m_measuredError; ///< why the last file was refused; shown until the next file or Clear
    std::optional<napkin::MeasuredComparison> m_measuredComparison;
    QLabel* m_measuredNote = nullptr;
    QPushButton* m_clearMeasured = nullptr;
    std::optional<napkin::Scenario> m_runSetup; ///< the measured run's own setup, when it says
    QPushButton* m_useRunSetup = nullptr;
    QPushButton* m_plan = nullptr; ///< "Find the fastest layout…"
};
