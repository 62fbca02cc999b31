// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The room's guesses against the tour's answer on a log scale, under the revealed answer: who was how far
// off. Each guess is a tick with its text above the line, the answer a thick tick with its own below; the
// scale spans every mark with half a decade to spare on either side, so a guess 10× off sits a visible
// distance from one 2× off. A guess of zero or below has no place on a log scale and is left out (the
// caption's verdict still names it).
#include <QString>
#include <QWidget>

#include <vector>

class GuessStrip : public QWidget {
    Q_OBJECT
public:
    struct Mark {
        QString label; ///< as typed: "40 days"
        double value = 0;
    };

    explicit GuessStrip(QWidget* parent = nullptr);

    /// The answer and the guesses to draw; hidden when no guess can be drawn.
    void setMarks(double answer, const QString& answerLabel, const std::vector<Mark>& guesses);
    /// How many guesses are drawn.
    int drawnGuesses() const { return static_cast<int>(m_guesses.size()); }
    /// Where `value` falls on the strip, 0 at its left end to 1 at its right (log scale).
    double position(double value) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    double m_answer = 1;
    QString m_answerLabel;
    std::vector<Mark> m_guesses;
    double m_lowDecade = 0, m_highDecade = 1; ///< log10 of the strip's ends
};
