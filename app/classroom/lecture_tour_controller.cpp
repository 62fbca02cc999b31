// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/lecture_tour_controller.h"

#include "app/classroom/caption_banner.h"
#include "app/classroom/tour_answers.h"
#include "app/classroom/tour_keys.h"
#include "app/document/scenario_host.h"
#include "engine/drills/drill_answer.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QGraphicsBlurEffect>
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

// The parts of a page that show an answer: the answers grid, the charts, "How is this computed?", the
// stride and bit views, and result tables. Matched by class name, so the classroom needs no page's header.
bool bearsAnswer(const QWidget* w) {
    for (const char* name :
         {"AnswersGrid", "InferenceAnswers", "ExplainPane", "ChartView", "StrideView", "BitFieldView"})
        if (w->inherits(name))
            return true;
    return qobject_cast<const QAbstractItemView*>(w) != nullptr;
}

} // namespace

LectureTourController::LectureTourController(ScenarioHost& host, CaptionBanner* banner, QWidget* keyAnchor,
                                             QObject* parent)
    : QObject(parent)
    , m_host(host)
    , m_banner(banner)
    , m_keyAnchor(keyAnchor)
    , m_steps(lectureTourSteps())
    , m_title(QString::fromStdString(lectureTour().title)) {
    m_banner->hide();
    connect(m_banner, &CaptionBanner::guessEntered, this, &LectureTourController::submitGuess);
}

LectureTourController::~LectureTourController() {
    if (m_active)
        qApp->removeEventFilter(this);
}

void LectureTourController::setTour(const napkin::Tour& tour) {
    veilPage(false);
    m_spotlight.clear();
    m_steps = tourSteps(tour);
    m_title = QString::fromStdString(tour.title);
    m_index = -1;
    m_ended = false;
    if (m_active)
        goTo(0);
}

void LectureTourController::start(int index) {
    if (!m_active) {
        m_before = m_host.scenario();
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
    m_ended = false;
    qApp->removeEventFilter(this);
    veilPage(false);
    m_spotlight.clear();
    m_banner->hide();
    // The tour's setups were the lecture's questions, not the user's work: give that back.
    if (m_before)
        m_host.applyScenario(*m_before);
    m_before.reset();
    m_spotlight.restoreScrolling();
}

void LectureTourController::next() {
    if (m_active && m_index == stepCount() - 1) {
        showEnd(); // not the last step again, which would hide its answer
        return;
    }
    goTo(std::min(m_index + 1, stepCount() - 1));
}

void LectureTourController::previous() {
    if (m_ended) { // back to the last step as it was left
        m_ended = false;
        showCaption();
        veilPage(isAnswerHidden());
        m_spotlight.refresh();
        return;
    }
    goTo(std::max(m_index - 1, 0));
}

void LectureTourController::showEnd() {
    if (m_index < 0)
        return;
    m_ended = true;
    veilPage(false);
    QString last;
    if (hasAnswer()) {
        m_revealed = std::max(m_revealed, 1);
        last = tourAnswer(m_steps[static_cast<std::size_t>(m_index)].answerField, m_host.scenario()).headline;
    }
    m_banner->setEnd(stepCount(), m_title, last);
    m_spotlight.refresh();
}

void LectureTourController::goTo(int index) {
    if (index < 0 || index >= stepCount())
        return;
    veilPage(false);
    m_index = index;
    m_revealed = 0;
    m_ended = false;
    m_verdict.clear();
    m_guesses.clear();
    const LectureTourStep& step = m_steps[static_cast<std::size_t>(index)];
    // The step's whole setup, whatever the window held: a step answers as a fresh window would.
    m_host.applyScenario(step.setup); // what this machine cannot show (no GPU) does not matter to the tour
    // Switching pages hands focus to the new page's first field, where → would move a text cursor;
    // the anchor keeps the keys for the tour (and cannot be typed into by accident).
    if (m_keyAnchor && focusIsText())
        m_keyAnchor->setFocus(Qt::OtherFocusReason);
    showCaption();
    m_spotlight.show(step.answerField.empty() ? nullptr : m_host.answerWidget(step.answerField));
    veilPage(isAnswerHidden());
    // Veiled again once the page's own queued work has run (charts replotted, answers re-arranged for
    // their new texts), so that the blur is made from the page as the step set it, never from what the
    // page showed before.
    QMetaObject::invokeMethod(
        this,
        [this, index] {
            if (m_active && m_index == index && isAnswerHidden())
                veilPage(true);
        },
        Qt::QueuedConnection);
}

void LectureTourController::setHidingEnabled(bool on) {
    if (m_hiding == on)
        return;
    m_hiding = on;
    if (m_active && m_index >= 0 && !m_ended) {
        showCaption();
        veilPage(isAnswerHidden());
    }
}

bool LectureTourController::hasAnswer() const {
    return m_index >= 0 && m_index < stepCount() &&
           !m_steps[static_cast<std::size_t>(m_index)].answerField.empty();
}

void LectureTourController::revealMore() {
    if (!m_active || !m_hiding || !hasAnswer() || m_ended)
        return;
    const TourAnswer answer =
        tourAnswer(m_steps[static_cast<std::size_t>(m_index)].answerField, m_host.scenario());
    if (m_revealed >= 1 + static_cast<int>(answer.derivation.size()))
        return;
    ++m_revealed;
    veilPage(false);
    showCaption();
    m_spotlight.refresh(); // the caption grew: the answer back into view
}

void LectureTourController::submitGuess(const QString& text) {
    if (!m_active || !hasAnswer() || m_ended)
        return;
    if (text.trimmed().isEmpty()) { // Enter in the empty field: Enter reveals, as everywhere in the tour
        if (m_keyAnchor)
            m_keyAnchor->setFocus(Qt::OtherFocusReason);
        revealMore();
        return;
    }
    const TourAnswer answer =
        tourAnswer(m_steps[static_cast<std::size_t>(m_index)].answerField, m_host.scenario());
    QStringList said;
    for (const QString& part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            said << part.trimmed();
    std::vector<GuessStrip::Mark> marks;
    QStringList verdicts;
    if (!answer.value) {
        verdicts << tr("You said %1; this answer is not one number: compare below.")
                        .arg(said.join(QStringLiteral("; ")));
    } else {
        napkin::DrillQuestion question;
        question.unit = answer.unit;
        question.answer = *answer.value;
        question.answerText = answer.headline.toStdString();
        question.relativeTolerance = answer.relativeTolerance;
        for (const QString& guess : said) {
            const napkin::DrillVerdict verdict = napkin::checkDrillAnswer(question, guess.toStdString());
            if (!verdict.guess.ok()) { // nonsense changes nothing: one line, the answer stays hidden
                m_banner->setGuessError(QString::fromStdString(verdict.guess.error));
                return;
            }
            verdicts << tr("You said %1: %2").arg(guess, QString::fromStdString(verdict.summary));
            marks.push_back({guess, verdict.guess.value});
        }
    }
    m_verdict = verdicts.join(QStringLiteral("; "));
    m_guesses = std::move(marks);
    if (m_keyAnchor)
        m_keyAnchor->setFocus(Qt::OtherFocusReason); // Space now reveals the derivation
    if (m_revealed == 0)
        m_revealed = 1;
    veilPage(false);
    showCaption();
    m_spotlight.refresh();
}

void LectureTourController::showCaption() {
    const LectureTourStep& step = m_steps[static_cast<std::size_t>(m_index)];
    const napkin::Scenario scenario = m_host.scenario();
    if (!m_hiding || !hasAnswer()) {
        const QString text = step.answer(scenario);
        const QString note = hasAnswer() ? tourAnswer(step.answerField, scenario).convention : QString();
        m_banner->setCaption(m_index + 1, stepCount(), step.question,
                             note.isEmpty() ? text : text + QStringLiteral("  ") + note);
        return;
    }
    const TourAnswer answer = tourAnswer(step.answerField, scenario);
    if (m_revealed == 0) {
        m_banner->setPrediction(m_index + 1, stepCount(), step.question, answer.convention);
        return;
    }
    m_banner->setRevealed(m_index + 1, stepCount(), step.question, answer.headline, m_verdict,
                          answer.derivation.mid(0, m_revealed - 1), m_revealed - 1 < answer.derivation.size(),
                          answer.convention);
    m_banner->guessStrip()->setMarks(answer.value.value_or(0), answer.headline, m_guesses);
}

void LectureTourController::veilPage(bool veiled) {
    for (const QPointer<QWidget>& w : m_veiled)
        if (w)
            w->setGraphicsEffect(nullptr); // deletes the effect
    m_veiled.clear();
    if (!veiled)
        return;
    // The page as it is now, laid out for the step's values, not as the last page left it.
    QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    // What the host names as giving this step's answer away, shown or not yet (an error line appears
    // with the error), then the answer-bearing kinds of widget on the page in front.
    for (QWidget* w : m_host.answerBearers(m_steps[static_cast<std::size_t>(m_index)].answerField))
        if (w && !m_banner->isAncestorOf(w))
            veil(w);
    for (QWidget* w : m_host.hostWindow()->findChildren<QWidget*>())
        if (w->isVisible() && bearsAnswer(w) && !m_banner->isAncestorOf(w))
            veil(w);
}

void LectureTourController::veil(QWidget* w) {
    // One veil per subtree: a widget inside one already veiled is hidden with it.
    for (const QPointer<QWidget>& v : m_veiled)
        if (v && (v == w || v->isAncestorOf(w)))
            return;
    if (w->graphicsEffect())
        return; // a widget's own effect stays; none of the pages sets one
    auto* blur = new QGraphicsBlurEffect(w);
    blur->setBlurRadius(28);
    blur->setBlurHints(QGraphicsBlurEffect::PerformanceHint);
    w->setGraphicsEffect(blur);
    w->update(); // drawn from the widget as it is now
    m_veiled.emplace_back(w);
}

QList<QWidget*> LectureTourController::veiledWidgets() const {
    QList<QWidget*> veiled;
    for (const QPointer<QWidget>& w : m_veiled)
        if (w)
            veiled << w;
    return veiled;
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
    const TourKey* bound = findTourKey(key->key());
    if (!bound || (bound->textFieldKeepsIt && focusIsText()))
        return false;
    switch (bound->command) {
    case TourCommand::next:
        next();
        return true;
    case TourCommand::previous:
        previous();
        return true;
    case TourCommand::reveal:
        if (!m_hiding || !hasAnswer())
            return false;
        revealMore();
        return true;
    case TourCommand::leave:
        stop();
        emit escapePressed();
        return true;
    }
    return false;
}
