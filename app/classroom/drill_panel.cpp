// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/drill_panel.h"

#include "app/document/scenario_host.h"
#include "engine/drills/drill_answer.h"
#include "engine/drills/drill_page.h"
#include "engine/drills/drill_set.h"
#include "widgets/text/engine_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

DrillPanel::DrillPanel(ScenarioHost& host, QWidget* parent)
    : QDialog(parent)
    , m_host(host)
    , m_topic(new QComboBox(this))
    , m_seed(new QSpinBox(this))
    , m_questionLabel(new QLabel(this))
    , m_answer(new QLineEdit(this))
    , m_verdict(new QLabel(this))
    , m_solution(new QLabel(this)) {
    setWindowTitle(tr("Napkin-math drill"));
    setObjectName(QStringLiteral("drillPanel"));
    m_topic->addItem(tr("Every topic in turn"), QString());
    for (napkin::DrillTopic t : napkin::allDrillTopics())
        m_topic->addItem(toQString(napkin::drillTopicName(t)), toQString(napkin::drillTopicName(t)));
    m_seed->setRange(0, 999999);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("The same seed gives the same questions as napkin-cli drill --seed"));
    for (QLabel* label : {m_questionLabel, m_verdict, m_solution}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setTextFormat(Qt::PlainText);
    }
    QFont big = m_questionLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_questionLabel->setFont(big);
    m_answer->setPlaceholderText(tr("Your answer, with units: 2.5 GB, 2.5e9, 2.33 GiB, 40B, 144 days"));
    m_answer->setObjectName(QStringLiteral("drillAnswer"));

    auto* check = new QPushButton(tr("&Check"), this);
    auto* show = new QPushButton(tr("&Show answer"), this);
    auto* page = new QPushButton(tr("Open the &page"), this);
    auto* next = new QPushButton(tr("&Next question"), this);
    check->setDefault(true);
    auto* settings = new QFormLayout;
    settings->addRow(tr("Topic"), m_topic);
    settings->addRow(tr("Seed"), m_seed);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {check, show, page, next})
        buttons->addWidget(b);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(settings);
    layout->addWidget(m_questionLabel);
    layout->addWidget(m_answer);
    layout->addWidget(m_verdict);
    layout->addLayout(buttons);
    layout->addWidget(m_solution, 1);

    connect(check, &QPushButton::clicked, this, [this] { this->check(m_answer->text()); });
    connect(m_answer, &QLineEdit::returnPressed, this, [this] { this->check(m_answer->text()); });
    connect(show, &QPushButton::clicked, this, &DrillPanel::revealAnswer);
    connect(page, &QPushButton::clicked, this, &DrillPanel::openPage);
    connect(next, &QPushButton::clicked, this, &DrillPanel::nextQuestion);
    connect(m_topic, &QComboBox::currentIndexChanged, this,
            [this] { showQuestion(static_cast<quint64>(m_seed->value()), 0); });
    connect(m_seed, &QSpinBox::valueChanged, this,
            [this](int seed) { showQuestion(static_cast<quint64>(seed), 0); });
    showQuestion(1, 0);
    resize(640, 420);
}

void DrillPanel::showQuestion(quint64 seed, int index) {
    if (m_seed->value() != static_cast<int>(seed)) {
        const QSignalBlocker quiet(m_seed);
        m_seed->setValue(static_cast<int>(seed));
    }
    const QString topicName = m_topic->currentData().toString();
    const auto topic = napkin::drillTopicFromName(topicName.toStdString());
    m_index = index;
    m_question = napkin::generateDrill(seed, index, topic);
    m_questionLabel->setText(tr("%1. %2").arg(index + 1).arg(toQString(m_question.text)));
    m_answer->clear();
    m_verdict->clear();
    m_solution->clear();
}

QString DrillPanel::check(const QString& text) {
    const napkin::DrillVerdict verdict = napkin::checkDrillAnswer(m_question, text.toStdString());
    QString line = verdict.guess.ok()
                       ? (verdict.correct ? tr("Right: %1").arg(toQString(m_question.answerText))
                                          : toQString(verdict.summary))
                       : toQString(verdict.guess.error);
    m_verdict->setText(line);
    return line;
}

void DrillPanel::revealAnswer() {
    QString text = tr("= %1").arg(toQString(m_question.answerText));
    if (m_question.relativeTolerance > 0)
        text += tr("  (right within %1 %)").arg(numberText(m_question.relativeTolerance * 100));
    text += QLatin1Char('\n') + toQString(m_question.formula);
    m_solution->setText(text);
}

void DrillPanel::nextQuestion() {
    showQuestion(static_cast<quint64>(m_seed->value()), m_index + 1);
}

void DrillPanel::openPage() {
    if (const auto scenario = napkin::applyTourStep(m_host.scenario(), napkin::drillTourStep(m_question)))
        m_host.applyScenario(*scenario);
}

QString DrillPanel::verdictText() const {
    return m_verdict->text();
}
QString DrillPanel::questionText() const {
    return m_questionLabel->text();
}
