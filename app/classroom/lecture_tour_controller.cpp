#include "app/classroom/lecture_tour_controller.h"

#include "app/classroom/caption_banner.h"
#include "app/classroom/lecture_tour.h"
#include "app/document/scenario_host.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace {

// Left and Right move the cursor in a text field; the tour must not steal them there.
bool focusIsText() {
    QWidget* w = QApplication::focusWidget();
    if (!w)
        return false;
    if (auto* edit = qobject_cast<QTextEdit*>(w))
        return !edit->isReadOnly();
    return qobject_cast<QLineEdit*>(w) || qobject_cast<QAbstractSpinBox*>(w) ||
           qobject_cast<QPlainTextEdit*>(w);
}

} // namespace

LectureTourController::LectureTourController(ScenarioHost& host, CaptionBanner* banner, QWidget* keyAnchor,
                                             QObject* parent)
    : QObject(parent)
    , m_host(host)
    , m_banner(banner)
    , m_keyAnchor(keyAnchor) {
    m_banner->hide();
}

LectureTourController::~LectureTourController() {
    if (m_active)
        qApp->removeEventFilter(this);
}

int LectureTourController::stepCount() {
    return static_cast<int>(lectureTourSteps().size());
}

void LectureTourController::start(int index) {
    if (!m_active) {
        m_active = true;
        qApp->installEventFilter(this);
        m_banner->show();
    }
    goTo(index);
}

void LectureTourController::stop() {
    if (!m_active)
        return;
    m_active = false;
    qApp->removeEventFilter(this);
    m_banner->hide();
}

void LectureTourController::next() {
    goTo(std::min(m_index + 1, stepCount() - 1));
}

void LectureTourController::previous() {
    goTo(std::max(m_index - 1, 0));
}

void LectureTourController::goTo(int index) {
    if (index < 0 || index >= stepCount())
        return;
    m_index = index;
    const LectureTourStep& step = lectureTourSteps()[static_cast<std::size_t>(index)];
    napkin::Scenario scenario = m_host.scenario();
    step.edit(scenario);
    scenario.page = step.page;
    m_host.applyScenario(scenario); // what this machine cannot show (no GPU) does not matter to the tour
    const QString answer = step.answer(scenario);
    // Switching pages hands focus to the new page's first field, where → would move a text cursor;
    // the anchor keeps the keys for the tour (and cannot be typed into by accident).
    if (m_keyAnchor && focusIsText())
        m_keyAnchor->setFocus(Qt::OtherFocusReason);
    m_banner->setCaption(index + 1, stepCount(), step.question, answer);
}

bool LectureTourController::eventFilter(QObject* watched, QEvent* event) {
    // Every object on the key event's way sees it; act once, at the receiver that has focus.
    if (event->type() != QEvent::KeyPress || !watched->isWidgetType())
        return QObject::eventFilter(watched, event);
    // Keys typed into another window (a file dialog over the main window) are that window's.
    if (static_cast<QWidget*>(watched)->window() != m_host.hostWindow())
        return false;
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    switch (key->key()) {
    case Qt::Key_PageDown:
        next();
        return true;
    case Qt::Key_PageUp:
        previous();
        return true;
    case Qt::Key_Right:
        if (focusIsText())
            return false;
        next();
        return true;
    case Qt::Key_Left:
        if (focusIsText())
            return false;
        previous();
        return true;
    case Qt::Key_Escape:
        stop();
        emit escapePressed();
        return true;
    default:
        return false;
    }
}
