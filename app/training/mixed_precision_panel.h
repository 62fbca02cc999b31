// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The mixed-precision lesson: the same lesson Cruncher trained in fp32, bf16 compute with fp32 master
// weights, pure bf16, fp16 without and with loss scaling — every value rounded through napkin's exact
// codecs — with the loss curves together and the gradient values each recipe flushed to zero; and, under
// them, the real thing: the Cruncher trained on oneDNN in fp32 and in mixed bf16, measured.
#include "engine/scenario/scenario.h"

#include <QWidget>

class TaskRunner;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class SeriesChart;

class MixedPrecisionPanel : public QWidget {
    Q_OBJECT
public:
    explicit MixedPrecisionPanel(QWidget* parent = nullptr);

    SeriesChart* chart() const { return m_chart; }
    SeriesChart* underflowChart() const { return m_underflows; }
    QTableWidget* table() const { return m_table; }
    void run();
    /// The steps box for a scenario file; and back, retraining off the GUI thread if it moved
    /// (page_scenarios.cpp).
    napkin::TrainingScenario::MixedPrecision scenario() const;
    void applyScenario(const napkin::TrainingScenario::MixedPrecision& scenario);

signals:
    void updated();

private:
    QSpinBox* m_steps;
    QPushButton* m_run;
    QLabel* m_status;
    SeriesChart* m_chart;
    SeriesChart* m_underflows;
    QTableWidget* m_table;
    TaskRunner* m_runner;
};
