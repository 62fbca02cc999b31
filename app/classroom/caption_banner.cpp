// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/caption_banner.h"

#include "app/classroom/guess_strip.h"
#include "app/classroom/tour_keys.h"

#include <QEvent>
#include <QKeyEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>

CaptionBanner::CaptionBanner(QWidget* parent)
    : QFrame(parent)
    , m_step(new QLabel(this))
    , m_question(new QLabel(this))
    , m_answer(new QLabel(this))
    , m_keys(new QLabel(tourKeyHint(), this))
    , m_guess(new QLineEdit(this))
    , m_strip(new GuessStrip(this)) {
    setObjectName(QStringLiteral("captionBanner"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Highlight);
    setFrameShape(QFrame::NoFrame);
    for (QLabel* label : {m_step, m_question, m_answer, m_keys}) {
        label->setForegroundRole(QPalette::HighlightedText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_step->setWordWrap(false);
    m_keys->setWordWrap(false);
    m_answer->setTextFormat(Qt::PlainText);
    m_guess->setObjectName(QStringLiteral("tourGuess"));
    m_guess->setPlaceholderText(tr("guess; guess…, Enter"));
    m_guess->setToolTip(tr("The room's guesses, with units, separated by ';' (\"40 days; 1 year\"); Enter "
                           "judges them and reveals the answer, with each guess on a log scale"));
    m_guess->setClearButtonEnabled(true);
    m_guess->hide();
    // Enter is taken here rather than through returnPressed: QLineEdit lets the key go on to its parents,
    // where the tour would read it as a second Enter (and reveal a derivation line too).
    m_guess->installEventFilter(this);
    updateFonts();
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(16, 8, 16, 8);
    layout->setVerticalSpacing(4);
    layout->addWidget(m_step, 0, 0, Qt::AlignTop);
    layout->addWidget(m_question, 0, 1);
    layout->addWidget(m_keys, 0, 2, Qt::AlignTop | Qt::AlignRight);
    // The guess sits beside the prompt rather than below it: the banner keeps its two rows, so the
    // pages keep their room at a projector's 1024×768 and 1280×720.
    layout->addWidget(m_answer, 1, 1, 1, 2);
    layout->addWidget(m_guess, 1, 2);
    layout->addWidget(m_strip, 2, 1, 1, 2);
    layout->setColumnStretch(1, 1);
    layout->setHorizontalSpacing(16);
}

void CaptionBanner::setHeader(int step, int steps, const QString& question) {
    m_step->setText(tr("%1 / %2").arg(step).arg(steps));
    m_question->setText(question);
    m_guessError.clear();
}

void CaptionBanner::placeAnswer(bool besideGuess) {
    auto* grid = static_cast<QGridLayout*>(layout());
    grid->removeWidget(m_answer);
    grid->addWidget(m_answer, 1, 1, 1, besideGuess ? 1 : 2);
    m_guess->setVisible(besideGuess);
}

void CaptionBanner::setCaption(int step, int steps, const QString& question, const QString& answer) {
    setHeader(step, steps, question);
    m_keys->setText(tourKeyHint());
    m_strip->hide();
    m_answer->setText(answer);
    placeAnswer(false);
}

void CaptionBanner::setPrediction(int step, int steps, const QString& question, const QString& note) {
    setHeader(step, steps, question);
    m_keys->setText(tourKeyHint());
    const QString prompt = tr("What does the room say? Type the guess, or press Space to reveal.");
    m_answer->setText(note.isEmpty() ? prompt : prompt + QStringLiteral(" ") + note);
    m_guess->clear();
    m_strip->hide();
    placeAnswer(true);
}

void CaptionBanner::setRevealed(int step, int steps, const QString& question, const QString& headline,
                                const QString& verdict, const QStringList& lines, bool more,
                                const QString& note) {
    setHeader(step, steps, question);
    m_keys->setText(tourKeyHint());
    // One paragraph, wrapping as the caption always did (a taller banner would take the pages' room at
    // 1280×720): the answer, the verdict, then the derivation as far as revealed, one step per press.
    QString text = tr("= %1").arg(headline);
    if (!verdict.isEmpty())
        text += tr("  —  %1").arg(verdict);
    if (!lines.isEmpty())
        text += tr("  ▸ %1").arg(lines.join(tr("  ▸ ")));
    if (more)
        text += tr("  (Space: how)");
    if (!note.isEmpty())
        text += QStringLiteral("  ") + note;
    m_answer->setText(text);
    placeAnswer(false);
}

void CaptionBanner::setEnd(int steps, const QString& title, const QString& lastAnswer) {
    m_step->setText(tr("%1 / %1").arg(steps));
    m_question->setText(title.isEmpty() ? tr("End of the tour") : tr("End of the tour: %1").arg(title));
    m_guessError.clear();
    m_keys->setText(tr("← back · Esc leave"));
    m_strip->hide();
    m_answer->setText(lastAnswer.isEmpty() ? tr("Esc gives the pages back as they were before the tour.")
                                           : tr("The last answer: %1. Esc gives the pages back as they were "
                                                "before the tour.")
                                                 .arg(lastAnswer));
    placeAnswer(false);
}

void CaptionBanner::setGuessError(const QString& error) {
    m_guessError = error;
    m_answer->setText(error);
}

QString CaptionBanner::stepText() const {
    return m_step->text();
}
QString CaptionBanner::questionText() const {
    return m_question->text();
}
QString CaptionBanner::answerText() const {
    return m_answer->text();
}
QString CaptionBanner::guessErrorText() const {
    return m_guessError;
}
QString CaptionBanner::keysText() const {
    return m_keys->text();
}

// Sizes relative to the banner's own font, so presentation mode's larger window font scales the banner.
void CaptionBanner::updateFonts() {
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_question->setFont(big);
    m_step->setFont(big);
    QFont answer = font();
    answer.setPointSizeF(answer.pointSizeF() * 1.15);
    m_answer->setFont(answer);
    m_guess->setFont(answer);
}

bool CaptionBanner::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_guess && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            emit guessEntered(m_guess->text());
            return true;
        }
    }
    return QFrame::eventFilter(watched, event);
}

void CaptionBanner::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateFonts();
}
