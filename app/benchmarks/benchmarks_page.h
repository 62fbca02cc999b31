// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Benchmarks page: a matmul sweep, a Cruncher training run and that Cruncher in every recipe the device
// runs, side by side, on the device chosen, measured by the engine's services (the same ones napkin-cli bench
// runs) on the page's TaskRunner, never on the GUI thread: one run at a time, cancellable at once, a
// superseded run's result dropped.
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/training_run.h"
#include "engine/compute/benchmark_result.h"
#include "engine/scenario/scenario.h"

#include <QStringList>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class BackendCache;
class ExplainPane;
class MatmulSweepPanel;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class RecipeComparisonPanel;
class TaskRunner;
struct TaskProgress;
class TrainingRunPanel;

class BenchmarksPage : public QWidget {
    Q_OBJECT
public:
    explicit BenchmarksPage(QWidget* parent = nullptr);
    ~BenchmarksPage() override;

    /// Every control of the page, for a scenario file; and back. A device that is not available here, or a
    /// type without a tick box, is left as it was and returned as a warning.
    napkin::BenchmarksScenario scenario() const;
    QStringList applyScenario(const napkin::BenchmarksScenario& scenario);

    /// Runs `cases` / one training run on the chosen device; supersedes a run in flight.
    void startSweep(const std::vector<napkin::MatmulCase>& cases);
    void startTraining(const napkin::TrainingRunRequest& request);
    /// Trains `request`'s setup in each recipe the device runs (fp32, tf32, mixed-bf16, mixed-fp16), one
    /// after another from the same seeds; the recipes it refuses are listed with its reasons.
    void startRecipeComparison(const napkin::TrainingRunRequest& request);
    /// Asks the chosen device and CPU library what they cannot run, and disables those types and recipes
    /// with the reason (done on every device or library change; tests call it after swapping backends).
    void refreshSupport();
    /// Stops the run in flight within one GEMM panel or training step; the cases (steps) it finished are
    /// shown, marked as a partial run.
    void cancel();
    bool isRunning() const { return m_running; }

    MatmulSweepPanel* sweepPanel() const { return m_sweep; }
    TrainingRunPanel* trainingPanel() const { return m_training; }
    RecipeComparisonPanel* recipePanel() const { return m_recipes; }
    TaskRunner* runner() const { return m_runner; }
    /// How the page makes backends (tests swap in their own).
    BackendCache& backends() const { return *m_backends; }
    ExplainPane* explainPane() const { return m_explain; }

signals:
    void sweepFinished(const napkin::MatmulSweep& sweep);
    /// A run could not start or failed as a whole (no backend, a configuration it cannot train).
    void runFailed(const QString& message);

private:
    QWidget* makeDeviceRow();
    void setRunning(bool running, const QString& status);
    void onProgress(const TaskProgress& report);
    std::string device() const;
    napkin::CpuBackendKind cpuBackend() const;
    /// The registry's options for the controls: the CPU library only when it is not the default.
    napkin::BackendOptions backendOptions() const;

    TaskRunner* m_runner;
    std::shared_ptr<BackendCache> m_backends;
    QComboBox* m_device = nullptr;
    QComboBox* m_cpuBackend = nullptr; ///< onednn, eigen: the CPU's GEMM library
    QLabel* m_deviceNote = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_cancel = nullptr;
    QScrollArea* m_panels = nullptr; ///< the three panels, scrolling
    MatmulSweepPanel* m_sweep;
    TrainingRunPanel* m_training;
    RecipeComparisonPanel* m_recipes;
    ExplainPane* m_explain;
    bool m_running = false;
    /// Set by Cancel: the run in flight stops early and delivers what it finished (a partial run).
    std::shared_ptr<std::atomic<bool>> m_stop;
};
