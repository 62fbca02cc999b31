// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The determinism lesson: two runs of the lesson Cruncher side by side, each with its own seed per
// source of randomness (weights, data order), and a verdict computed from the bits of the losses.
#include "engine/lessons/mixed_precision_trainer.h"
#include "engine/scenario/scenario.h"

#include <QWidget>

class TaskRunner;
class QLabel;
class QSpinBox;
class SeriesChart;

class DeterminismPanel : public QWidget {
    Q_OBJECT
public:
    explicit DeterminismPanel(QWidget* parent = nullptr);

    SeriesChart* chartA() const { return m_chartA; }
    SeriesChart* chartB() const { return m_chartB; }
    QLabel* verdict() const { return m_verdict; }
    /// Seeds of run a and b: [0] init, [1] data order.
    QSpinBox* seed(int run, int source) const { return m_seeds[run][source]; }
    /// The controls for a scenario file; and back, retraining off the GUI thread once if they moved
    /// (page_scenarios.cpp).
    napkin::TrainingScenario::Determinism scenario() const;
    void applyScenario(const napkin::TrainingScenario::Determinism& scenario);

signals:
    void updated();

private:
    void rerun();

    QSpinBox* m_seeds[2][2];
    QSpinBox* m_taskSeed;
    QSpinBox* m_steps;
    SeriesChart* m_chartA;
    SeriesChart* m_chartB;
    QLabel* m_verdict;
    TaskRunner* m_runner;
};
