// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tour's caption: step number, the lecture's question and the engine's answer, in large type on the
// palette's highlight colours so it reads from the back of a room in light and dark palettes alike. In
// predict-then-reveal it first shows the question and a field for the room's guess, then the answer, how
// far the guess was, and the derivation as far as it has been revealed.
#include <QFrame>
#include <QStringList>

class GuessStrip;
class QLabel;
class QLineEdit;

class CaptionBanner : public QFrame {
    Q_OBJECT
public:
    explicit CaptionBanner(QWidget* parent = nullptr);

    /// Question and answer together (hiding off, or a step with nothing to hide).
    void setCaption(int step, int steps, const QString& question, const QString& answer);
    /// The question alone, the answer hidden, the guess field cleared and offered; `note`: the convention
    /// the answer counts by, said with the prompt (may be empty).
    void setPrediction(int step, int steps, const QString& question, const QString& note = {});
    /// The answer's headline, the verdict on the room's guess (may be empty) and the derivation lines
    /// revealed so far; `more`: lines are still to come (the key hint says so).
    void setRevealed(int step, int steps, const QString& question, const QString& headline,
                     const QString& verdict, const QStringList& lines, bool more, const QString& note = {});
    /// The end of the tour (→ on its last step): its title and the last step's answer, still shown.
    void setEnd(int steps, const QString& title, const QString& lastAnswer);
    /// One line in place of the prompt: why the guess was not read. Nothing else changes.
    void setGuessError(const QString& error);

    QString stepText() const;
    QString questionText() const;
    QString answerText() const;
    QString guessErrorText() const;
    QString keysText() const;
    QLineEdit* guessField() const { return m_guess; }
    /// The room's guesses against the answer, under it once revealed (hidden otherwise).
    GuessStrip* guessStrip() const { return m_strip; }

signals:
    /// Enter in the guess field.
    void guessEntered(const QString& text);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateFonts();
    void setHeader(int step, int steps, const QString& question);
    /// The answer across the banner, or beside the guess field (shown then).
    void placeAnswer(bool besideGuess);

    QLabel* m_step;
    QLabel* m_question;
    QLabel* m_answer;
    QLabel* m_keys;
    QLineEdit* m_guess;
    GuessStrip* m_strip;
    QString m_guessError;
};
