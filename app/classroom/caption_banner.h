#pragma once
// The tour's caption: step number, the lecture's question and the engine's answer, in large type on the
// palette's highlight colours so it reads from the back of a room in light and dark palettes alike.
#include <QFrame>

class QLabel;

class CaptionBanner : public QFrame {
    Q_OBJECT
public:
    explicit CaptionBanner(QWidget* parent = nullptr);

    void setCaption(int step, int steps, const QString& question, const QString& answer);
    QString stepText() const;
    QString questionText() const;
    QString answerText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateFonts();

    QLabel* m_step;
    QLabel* m_question;
    QLabel* m_answer;
    QLabel* m_keys;
};
