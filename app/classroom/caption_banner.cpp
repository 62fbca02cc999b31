#include "app/classroom/caption_banner.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>

CaptionBanner::CaptionBanner(QWidget* parent)
    : QFrame(parent)
    , m_step(new QLabel(this))
    , m_question(new QLabel(this))
    , m_answer(new QLabel(this))
    , m_keys(new QLabel(tr("→ next · ← back · Esc leave"), this)) {
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
    updateFonts();
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(16, 10, 16, 10);
    layout->addWidget(m_step, 0, 0, Qt::AlignTop);
    layout->addWidget(m_question, 0, 1);
    layout->addWidget(m_keys, 0, 2, Qt::AlignTop | Qt::AlignRight);
    layout->addWidget(m_answer, 1, 1, 1, 2);
    layout->setColumnStretch(1, 1);
    layout->setHorizontalSpacing(16);
}

void CaptionBanner::setCaption(int step, int steps, const QString& question, const QString& answer) {
    m_step->setText(tr("%1 / %2").arg(step).arg(steps));
    m_question->setText(question);
    m_answer->setText(answer);
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
}

void CaptionBanner::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateFonts();
}
