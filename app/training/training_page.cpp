// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/training/training_page.h"

#include "app/training/data_lesson_panel.h"
#include "app/training/determinism_panel.h"
#include "app/training/explain_training.h"
#include "app/training/init_lesson_panel.h"
#include "app/training/mixed_precision_panel.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/panel_scroll_area.h"

#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

TrainingPage::TrainingPage(QWidget* parent)
    : QWidget(parent)
    , m_lessons(new QTabWidget(this))
    , m_init(new InitLessonPanel(m_lessons))
    , m_determinism(new DeterminismPanel(m_lessons))
    , m_data(new DataLessonPanel(m_lessons))
    , m_mixed(new MixedPrecisionPanel(m_lessons))
    , m_explain(new ExplainPane(this)) {
    m_lessons->setDocumentMode(true);
    // Each lesson scrolls down when the window is too short for it: the Mixed precision lesson's charts and
    // table asked for 598 px in presentation type, and a 1280×720 projector under the tour's banner leaves
    // a page 580, so the window refused the screen's height (issue 35).
    const auto addLesson = [this](QWidget* panel, const QString& name) {
        auto* scroll = new PanelScrollArea(panel, m_lessons);
        scroll->setFrameShape(QFrame::NoFrame);
        m_lessons->addTab(scroll, name);
    };
    addLesson(m_init, tr("Initialization"));
    addLesson(m_determinism, tr("Determinism"));
    addLesson(m_data, tr("Data loading"));
    addLesson(m_mixed, tr("Mixed precision"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_lessons, 1);
    layout->addWidget(m_explain);
    connect(m_lessons, &QTabWidget::currentChanged, this,
            [this] { m_explain->setHtml(explainTraining(scenario().lesson)); });
    m_explain->setHtml(explainTraining(scenario().lesson));
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

using namespace napkin;

namespace {
// The lesson tabs in their order above; the scenario names the lesson, not its position.
constexpr TrainingLesson kLessonTabs[] = {TrainingLesson::init, TrainingLesson::determinism,
                                          TrainingLesson::data, TrainingLesson::mixedPrecision};
} // namespace

TrainingScenario TrainingPage::scenario() const {
    TrainingScenario s;
    const int tab = std::clamp(m_lessons->currentIndex(), 0, static_cast<int>(std::size(kLessonTabs)) - 1);
    s.lesson = kLessonTabs[tab];
    s.init = m_init->scenario();
    s.determinism = m_determinism->scenario();
    s.data = m_data->scenario();
    s.mixedPrecision = m_mixed->scenario();
    return s;
}

QStringList TrainingPage::applyScenario(const TrainingScenario& s) {
    m_init->applyScenario(s.init);
    m_determinism->applyScenario(s.determinism);
    QStringList warnings = m_data->applyScenario(s.data);
    m_mixed->applyScenario(s.mixedPrecision);
    for (int i = 0; i < static_cast<int>(std::size(kLessonTabs)); ++i)
        if (kLessonTabs[i] == s.lesson)
            m_lessons->setCurrentIndex(i);
    return warnings;
}
