#include "app/training_page.h"

#include "app/data_lesson_panel.h"
#include "app/determinism_panel.h"
#include "app/init_lesson_panel.h"
#include "app/mixed_precision_panel.h"

#include <QTabWidget>
#include <QVBoxLayout>

TrainingPage::TrainingPage(QWidget* parent)
    : QWidget(parent)
    , m_lessons(new QTabWidget(this))
    , m_init(new InitLessonPanel(m_lessons))
    , m_determinism(new DeterminismPanel(m_lessons))
    , m_data(new DataLessonPanel(m_lessons))
    , m_mixed(new MixedPrecisionPanel(m_lessons)) {
    m_lessons->setDocumentMode(true);
    m_lessons->addTab(m_init, tr("Initialization"));
    m_lessons->addTab(m_determinism, tr("Determinism"));
    m_lessons->addTab(m_data, tr("Data loading"));
    m_lessons->addTab(m_mixed, tr("Mixed precision"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_lessons);
}
