#pragma once
// The Benchmarks page (issue 6): a matmul sweep and a Cruncher training run on a real backend, run by
// BenchmarkService off the GUI thread; throughput against size with the promised peak, the loss curve,
// predicted against measured memory, and the numbers exported as PNG, CSV and JSON.
#include "app/benchmarks/benchmark_service.h"
#include "engine/scenario/scenario.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <optional>
#include <vector>

class ExplainPane;
class LossChart;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class ThroughputChart;

class BenchmarksPage : public QWidget {
    Q_OBJECT
public:
    explicit BenchmarksPage(QWidget* parent = nullptr);
    ~BenchmarksPage() override;

    /// Every control of the page, for a scenario file; and back (page_scenarios.cpp). A device that is
    /// not available here, or a type without a tick box, is left as it was and returned as a warning.
    napkin::BenchmarksScenario scenario() const;
    QStringList applyScenario(const napkin::BenchmarksScenario& scenario);

    BenchmarkService* service() const { return m_service; }
    ThroughputChart* throughputChart() const { return m_throughput; }
    LossChart* lossChart() const { return m_loss; }
    /// The last sweep that finished (unset before the first, and after a new run starts).
    const std::optional<napkin::MatmulSweep>& sweep() const { return m_sweep; }
    const std::optional<TrainingReport>& training() const { return m_training; }
    bool isRunning() const { return m_running; }
    ExplainPane* explainPane() const { return m_explain; }

    /// The square sizes in the sizes field, or an error message naming the bad entry.
    std::vector<long> sizes(QString* error) const;

    /// Write the throughput chart as PNG / every number as CSV or JSON; an error message or "".
    QString exportChartPng(const QString& path) const;
    QString exportCsv(const QString& path) const;
    QString exportJson(const QString& path) const;

private:
    QWidget* makeSweepControls();
    QWidget* makeTrainingControls();
    void runSweep();
    void runTraining();
    void cancel();
    void setRunning(bool running, const QString& status);
    void onProgress(const BenchmarkProgressReport& report);
    void onSweepFinished(const napkin::MatmulSweep& sweep);
    void onTrainingFinished(const TrainingReport& report);
    void onFailed(const QString& message);
    void updateFp16Warning();
    void showResults();
    void showTraining();
    void exportWithDialog(int kind);

    BenchmarkService* m_service;
    QComboBox* m_device = nullptr;
    QLabel* m_deviceNote = nullptr;
    std::map<napkin::BenchDtype, QCheckBox*> m_dtypes;
    QLabel* m_fp16Warning = nullptr;
    QLineEdit* m_sizes = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QSpinBox *m_dim = nullptr, *m_layers = nullptr, *m_batch = nullptr, *m_steps = nullptr;
    QComboBox* m_optimizer = nullptr;
    QPushButton* m_train = nullptr;
    ThroughputChart* m_throughput = nullptr;
    QTableWidget* m_results = nullptr;
    LossChart* m_loss = nullptr;
    QLabel* m_trainingSummary = nullptr;
    QTableWidget* m_memory = nullptr;
    QLabel* m_basis = nullptr;
    ExplainPane* m_explain = nullptr;
    std::optional<napkin::MatmulSweep> m_sweep;
    std::optional<TrainingReport> m_training;
    bool m_running = false;
};
