// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The training half of the Benchmarks page: which Cruncher to train, and what the run measured: the
// loss per step, the step time measured and predicted (from a hardware profile the user picks) and FLOP/s,
// and the memory the formula predicts next to what the trainer's accounting allocator holds, component by
// component and event by event over the last step. The page runs it (engine/benchmarks/training_run.h); the
// exports are the same documents as `napkin-cli bench train`.
#include "engine/benchmarks/training_run.h"
#include "engine/scenario/scenario.h"

#include <QGroupBox>

#include <map>
#include <optional>
#include <string>
#include <vector>

class HardwareProfileChooser;
class LossChart;
class MemoryTimelineChart;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

class TrainingRunPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit TrainingRunPanel(QWidget* parent = nullptr);

    /// The run the controls ask for (the optimizer's default learning rate).
    napkin::TrainingRunRequest request() const;
    /// Train and Compare recipes together: one run at a time.
    void setTrainEnabled(bool enabled);
    /// Disables each recipe the chosen backend's trainer refuses, its reason in the item's tooltip and in
    /// a grey line under the choice.
    void setUnsupportedRecipes(const std::map<napkin::PrecisionRecipe, std::string>& reasons);
    /// Shows a finished run (or none).
    void showRun(const std::optional<napkin::TrainingRun>& run);
    /// Shows a run still training, as far as it got: the loss of every step finished (of `steps`). The
    /// curve grows step by step; the timing, memory and run() wait for the run to end.
    void showRunningLosses(const std::vector<double>& losses, long steps);
    const std::optional<napkin::TrainingRun>& run() const { return m_run; }

    /// The loss chart as PNG, the run as CSV or JSON; an error message or "".
    QString exportChartPng(const QString& path) const;
    QString exportCsv(const QString& path) const;
    QString exportJson(const QString& path) const;

    LossChart* chart() const { return m_chart; }
    /// The profile file each run's step is predicted from (beside the Train button).
    HardwareProfileChooser* profileChooser() const { return m_profile; }
    /// Memory over the run's last step: the prediction's stacked components, the ledger's totals on top.
    MemoryTimelineChart* timelineChart() const { return m_timeline; }

    /// The panel's part of the page's scenario: D, L, B, steps, optimizer, precision.
    void writeScenario(napkin::BenchmarksScenario& scenario) const;
    void readScenario(const napkin::BenchmarksScenario& scenario);

signals:
    void trainClicked();
    /// "Compare recipes": the same setup in every recipe the device runs (the page's recipe comparison).
    void compareClicked();

private:
    QSpinBox *m_dim, *m_layers, *m_batch, *m_steps;
    QComboBox* m_optimizer;
    QComboBox* m_precision;  ///< fp32, mixed-bf16
    QLabel* m_precisionNote; ///< why a recipe is disabled
    QPushButton* m_train;
    QPushButton* m_compare;
    HardwareProfileChooser* m_profile;
    LossChart* m_chart;
    MemoryTimelineChart* m_timeline;
    QLabel* m_summary;
    QTableWidget* m_memory;
    std::optional<napkin::TrainingRun> m_run;
};
