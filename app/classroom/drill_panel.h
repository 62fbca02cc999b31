// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Drill panel: napkin-math questions with fresh numbers (engine/drills), the same ones as
// `napkin-cli drill --seed S [--topic T]` for the same seed. Type an answer with units ("2.5 GB", "2.5e9",
// "2.33 GiB", "40B", "144 days"): it says right, or how far off, or why it cannot read it; Show answer
// gives the engine's answer and formula; Open the page sets the question's page up in the window.
#include "engine/drills/drill_question.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class ScenarioHost;

class DrillPanel : public QDialog {
    Q_OBJECT
public:
    explicit DrillPanel(ScenarioHost& host, QWidget* parent = nullptr);

    /// Question `index` of the drill with `seed` (and the topic chosen, or every topic in turn).
    void showQuestion(quint64 seed, int index);
    const napkin::DrillQuestion& question() const { return m_question; }
    int questionIndex() const { return m_index; }
    /// Judges `text` as the current question's answer and shows the verdict; returns the line shown.
    QString check(const QString& text);
    QString verdictText() const;
    QString questionText() const;
    QLineEdit* answerField() const { return m_answer; }
    QComboBox* topicBox() const { return m_topic; }

public slots:
    void nextQuestion();
    void revealAnswer();
    /// Brings the question's page to the front with its inputs set (the window's other controls stay).
    void openPage();

private:
    ScenarioHost& m_host;
    QComboBox* m_topic;
    QSpinBox* m_seed;
    QLabel* m_questionLabel;
    QLineEdit* m_answer;
    QLabel* m_verdict;
    QLabel* m_solution;
    napkin::DrillQuestion m_question;
    int m_index = 0;
};
