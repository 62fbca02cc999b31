// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The matmul half of the Benchmarks page: which types and sizes to sweep, and what the sweep measured,
// as throughput against n with the promised peak per type, and as a table. The page runs the sweep
// (engine/benchmarks/matmul_sweep.h) and hands the result back; the exports are engine/report's
// documents, the same as `napkin-cli bench matmul --json`.
#include "engine/compute/benchmark_result.h"
#include "engine/scenario/scenario.h"

#include <QGroupBox>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

class QCheckBox;
class QLabel;
class ErrorOverlay;
class QLineEdit;
class QPushButton;
class QTableWidget;
class ThroughputChart;

class MatmulSweepPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit MatmulSweepPanel(QWidget* parent = nullptr);

    /// The cases the controls ask for (every ticked type × every size), or nullopt with the reason shown
    /// next to the field at fault.
    std::optional<std::vector<napkin::MatmulCase>> cases();
    void setRunEnabled(bool enabled);
    /// Disables each type the chosen backend refuses, its reason in the box's tooltip and in a grey line
    /// under the boxes; the others are enabled. A ticked box stays ticked (the scenario keeps it) but
    /// is not run while disabled.
    void setUnsupportedDtypes(const std::map<napkin::BenchDtype, std::string>& reasons);
    /// Shows a finished sweep (or none: the empty chart and table).
    void showSweep(const std::optional<napkin::MatmulSweep>& sweep);
    /// Shows a sweep still running, as far as it got: `soFar` holds the cases finished of `caseCount`.
    /// The chart and table grow case by case; sweep() and the exports wait for the whole sweep.
    void showRunningSweep(const napkin::MatmulSweep& soFar, int caseCount);
    const std::optional<napkin::MatmulSweep>& sweep() const { return m_sweep; }

    /// The throughput chart as PNG, the sweep as CSV or JSON; an error message or "".
    QString exportChartPng(const QString& path) const;
    QString exportCsv(const QString& path) const;
    QString exportJson(const QString& path) const;

    ThroughputChart* chart() const { return m_chart; }

    /// The panel's part of the page's scenario: types and sizes. A type without a tick box is a warning.
    void writeScenario(napkin::BenchmarksScenario& scenario) const;
    /// The ticked types the chosen backend runs (a disabled box stays ticked in the scenario, not here):
    /// what a sweep would run, and what Copy as command names.
    std::vector<napkin::BenchDtype> runnableDtypes() const;
    QStringList readScenario(const napkin::BenchmarksScenario& scenario);

signals:
    void runClicked();

private:
    void updateFp16Warning();
    /// The chart, table and basis line of `sweep`; `state` opens the basis line (running, cancelled).
    void render(const napkin::MatmulSweep& sweep, const QString& state);

    std::map<napkin::BenchDtype, QCheckBox*> m_dtypes;
    QLabel* m_fp16Warning;
    QLabel* m_unsupported; ///< the reasons of the disabled types, one line each
    QLineEdit* m_sizes;
    ErrorOverlay* m_sizesError;
    QPushButton* m_run;
    ThroughputChart* m_chart;
    QLabel* m_basis;
    QTableWidget* m_results;
    std::optional<napkin::MatmulSweep> m_sweep;
};
