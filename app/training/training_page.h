// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "Training" tab: the lecture's training-loop lessons, each its own panel, each computed for real.
#include "engine/scenario/scenario.h"

#include <QWidget>

class DataLessonPanel;
class DeterminismPanel;
class ExplainPane;
class InitLessonPanel;
class MixedPrecisionPanel;
class QTabWidget;

class TrainingPage : public QWidget {
    Q_OBJECT
public:
    explicit TrainingPage(QWidget* parent = nullptr);

    QTabWidget* lessons() const { return m_lessons; }
    InitLessonPanel* initPanel() const { return m_init; }
    DeterminismPanel* determinismPanel() const { return m_determinism; }
    DataLessonPanel* dataPanel() const { return m_data; }
    MixedPrecisionPanel* mixedPrecisionPanel() const { return m_mixed; }
    /// "How is this computed?": the formulas of the lesson in front.
    ExplainPane* explainPane() const { return m_explain; }

    /// Every panel's controls and the lesson in front, for a scenario file; and back (page_scenarios.cpp).
    /// Applying never computes on the GUI thread: the panels that moved start their runs on workers.
    napkin::TrainingScenario scenario() const;
    QStringList applyScenario(const napkin::TrainingScenario& scenario);

private:
    QTabWidget* m_lessons;
    InitLessonPanel* m_init;
    DeterminismPanel* m_determinism;
    DataLessonPanel* m_data;
    MixedPrecisionPanel* m_mixed;
    ExplainPane* m_explain;
};
