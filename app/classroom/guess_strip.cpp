// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/guess_strip.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

GuessStrip::GuessStrip(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("guessStrip"));
    setForegroundRole(QPalette::HighlightedText); // drawn on the caption's highlight colours
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    hide();
}

void GuessStrip::setMarks(double answer, const QString& answerLabel, const std::vector<Mark>& guesses) {
    m_guesses.clear();
    for (const Mark& g : guesses)
        if (g.value > 0 && std::isfinite(g.value))
            m_guesses.push_back(g);
    const bool drawable = answer > 0 && std::isfinite(answer) && !m_guesses.empty();
    setVisible(drawable);
    if (!drawable)
        return;
    m_answer = answer;
    m_answerLabel = answerLabel;
    double low = std::log10(answer), high = low;
    for (const Mark& g : m_guesses) {
        low = std::min(low, std::log10(g.value));
        high = std::max(high, std::log10(g.value));
    }
    m_lowDecade = low - 0.5;
    m_highDecade = high + 0.5;
    update();
}

double GuessStrip::position(double value) const {
    return (std::log10(value) - m_lowDecade) / (m_highDecade - m_lowDecade);
}

QSize GuessStrip::sizeHint() const {
    const int line = fontMetrics().height();
    return {20 * line, 2 * line + 16};
}

void GuessStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor ink = palette().color(foregroundRole());
    const QFontMetrics fm = fontMetrics();
    const int margin = fm.horizontalAdvance(QLatin1Char('M')) * 3;
    const double left = margin, width = std::max(1, this->width() - 2 * margin);
    const int axisY = fm.height() + 6;
    const auto xOf = [&](double v) { return left + position(v) * width; };
    p.setPen(QPen(ink, 2));
    p.drawLine(QPointF(left, axisY), QPointF(left + width, axisY));
    // Guesses above the line, the answer below it.
    p.setPen(QPen(ink, 2));
    for (const Mark& g : m_guesses) {
        const double x = xOf(g.value);
        p.drawLine(QPointF(x, axisY - 5), QPointF(x, axisY + 5));
        const int w = fm.horizontalAdvance(g.label);
        // Above the tick's top, so that the tick never crosses the text.
        p.drawText(QPointF(std::clamp(x - w / 2.0, 0.0, double(this->width() - w)), axisY - 5 - fm.descent() - 2),
                   g.label);
    }
    const double x = xOf(m_answer);
    p.setPen(QPen(ink, 5));
    p.drawLine(QPointF(x, axisY - 8), QPointF(x, axisY + 8));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const int w = QFontMetrics(bold).horizontalAdvance(m_answerLabel);
    p.drawText(QPointF(std::clamp(x - w / 2.0, 0.0, double(this->width() - w)), axisY + 8 + fm.ascent()),
               m_answerLabel);
}
