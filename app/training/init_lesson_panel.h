// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The initialization lesson: sliders for D and L, a seed, and the activation std per layer on a log
// axis for N(0,1), N(0,1)/√D and truncated weights, computed (off the GUI thread) for real.
#include "engine/lessons/init_std_experiment.h"
#include "engine/scenario/scenario.h"

#include <QWidget>

class TaskRunner;
class QLabel;
class QSlider;
class QSpinBox;
class SeriesChart;

class InitLessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit InitLessonPanel(QWidget* parent = nullptr);

    SeriesChart* chart() const { return m_chart; }
    QSlider* dimSlider() const { return m_dim; }
    QSlider* layersSlider() const { return m_layers; }
    /// The configuration the sliders describe (D = 2^slider).
    napkin::InitStdConfig config() const;
    /// The controls for a scenario file; and back, recomputing off the GUI thread once if they moved
    /// (page_scenarios.cpp).
    napkin::TrainingScenario::Init scenario() const;
    void applyScenario(const napkin::TrainingScenario::Init& scenario);

signals:
    /// A result reached the chart (tests and screenshots wait for it).
    void updated();

private:
    void recompute();
    void show(const napkin::InitStdResult& result);

    QSlider* m_dim;
    QSlider* m_layers;
    QSpinBox* m_seed;
    QLabel* m_dimLabel;
    QLabel* m_layersLabel;
    QLabel* m_summary;
    SeriesChart* m_chart;
    TaskRunner* m_runner;
};
