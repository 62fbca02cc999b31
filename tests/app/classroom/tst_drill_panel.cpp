// SPDX-License-Identifier: GPL-3.0-or-later
// The Drill panel: the CLI's questions for the same seed, answers read with units, nonsense refused with a
// message, and the question's page set up in the window.
#include "app/classroom/drill_panel.h"
#include "app/shell/main_window.h"
#include "engine/drills/drill_set.h"

#include <QComboBox>
#include <QLineEdit>
#include <QStandardPaths>
#include <QtTest>

using namespace napkin;

class TestDrillPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // `napkin-cli drill --seed 1` prints generateDrills(1, n): question i of the panel is question i there.
    void sameSeedSameQuestionsAsTheCli() {
        MainWindow window;
        DrillPanel panel(window);
        const auto questions = generateDrills(1, 12);
        for (int i = 0; i < 12; ++i) {
            panel.showQuestion(1, i);
            QCOMPARE(panel.question().text, questions[static_cast<std::size_t>(i)].text);
            QCOMPARE(panel.question().answer, questions[static_cast<std::size_t>(i)].answer);
        }
        panel.topicBox()->setCurrentIndex(panel.topicBox()->findData(QStringLiteral("kv-cache")));
        panel.showQuestion(4, 2);
        QCOMPARE(panel.question().text, generateDrills(4, 3, DrillTopic::kvCache)[2].text);
    }

    // Seed 1's first question: a 2048×768×256×8 fp64 tensor, 25,769,803,776 B.
    void acceptsUnitsRefusesNonsense() {
        MainWindow window;
        DrillPanel panel(window);
        panel.showQuestion(1, 0);
        QCOMPARE(panel.question().answer, 25769803776.0);
        for (const char* same : {"25.77 GB", "2.577e10", "24 GiB", "25769803776 bytes"})
            QVERIFY2(panel.check(QString::fromLatin1(same)).startsWith(QStringLiteral("Right")), same);
        QVERIFY(panel.check(QStringLiteral("2.5 GB")).contains(QStringLiteral("too low")));
        const QString nonsense = panel.check(QStringLiteral("lots"));
        QVERIFY2(nonsense.contains(QStringLiteral("cannot read 'lots'")), qPrintable(nonsense));
        QVERIFY(nonsense.contains(QStringLiteral("2.33 GiB"))); // says what it would read
        QCOMPARE(panel.verdictText(), nonsense);
    }

    void opensThePageSetUp() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        DrillPanel panel(window);
        panel.topicBox()->setCurrentIndex(panel.topicBox()->findData(QStringLiteral("views")));
        panel.showQuestion(5, 0);
        panel.openPage();
        QCOMPARE(window.scenario().page, ScenarioPage::tensor);
        QCOMPARE(window.scenario().tensor.expression, panel.question().parameters[1].text);
        panel.topicBox()->setCurrentIndex(panel.topicBox()->findData(QStringLiteral("training-time")));
        panel.showQuestion(5, 0);
        panel.openPage();
        QCOMPARE(window.scenario().page, ScenarioPage::accounting);
        QCOMPARE(window.scenario().accounting.input.gpu, panel.question().parameters[3].text);
    }
};

QTEST_MAIN(TestDrillPanel)
#include "tst_drill_panel.moc"
