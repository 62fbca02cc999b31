// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/answer_notices.h"

#include "widgets/controls/text_tone.h"

#include <QLabel>
#include <QVBoxLayout>

AnswerNotices::AnswerNotices(QWidget* parent, const QString& errorName)
    : m_warnings(new QLabel(parent))
    , m_error(new QLabel(parent)) {
    m_warnings->setObjectName(QStringLiteral("capabilityWarnings"));
    setTextTone(m_warnings, TextTone::caution);
    m_warnings->setWordWrap(true);
    m_warnings->hide();
    m_error->setObjectName(errorName);
    setTextTone(m_error, TextTone::alert);
    setTextBold(m_error, true);
    m_error->setWordWrap(true);
    m_error->hide();
}

void AnswerNotices::addTo(QVBoxLayout* layout) const {
    layout->addWidget(m_warnings);
    layout->addWidget(m_error);
}

void AnswerNotices::setWarnings(const QStringList& warnings) {
    QStringList lines;
    for (const QString& w : warnings)
        lines << QStringLiteral("⚠ ") + w;
    m_warnings->setText(lines.join(QLatin1Char('\n')));
    m_warnings->setVisible(!warnings.isEmpty());
}

QString AnswerNotices::warningsText() const {
    return m_warnings->text();
}

void AnswerNotices::showError(const QString& message) {
    m_error->setText(message);
    m_error->show();
}

void AnswerNotices::clearError() {
    m_error->hide();
    m_error->clear();
}

QString AnswerNotices::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}
