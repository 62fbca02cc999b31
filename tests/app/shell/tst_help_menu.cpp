// SPDX-License-Identifier: GPL-3.0-or-later
// Help on every page: the Help menu's four entries, a "What is this page?" for each page that names the
// lecture idea it shows, shortcuts read from the window's own actions, the CLI's contract, and About
// with the versions the engine's registry reports.
#include "app/accounting/accounting_page.h"
#include "app/classroom/tour_keys.h"
#include "app/roofline/roofline_page.h"
#include "app/shell/help_menu.h"
#include "app/shell/main_window.h"
#include "app/training/training_page.h"
#include "engine/benchmarks/backend_registry.h"
#include "widgets/charts/chart_view.h"

#include <QAction>
#include <QMenuBar>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

using napkin::ScenarioPage;

class TestHelpMenu : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void everyPageHasItsIdea_data();
    void everyPageHasItsIdea();
    void menuOpensThePageInFront();
    void shortcutsComeFromTheActions();
    void shortcutsListTheTourKeys();
    void commandLinePointsToTheContract();
    void aboutNamesTheLibraries();
    void windowOpensAtTheNamedPage();
};

// What `napkin --page NAME` does once the window is up: the named page in front; a chart's name opens
// its page.
void TestHelpMenu::windowOpensAtTheNamedPage() {
    MainWindow w;
    QVERIFY(w.showPageNamed(QStringLiteral("roofline")));
    QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.rooflinePage()));
    QVERIFY(w.showPageNamed(QStringLiteral("flops")));
    QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.accountingPage()));
    QVERIFY(w.showPageNamed(QStringLiteral("training")));
    QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.trainingPage()));
    QVERIFY(!w.showPageNamed(QStringLiteral("nowhere")));
}

void TestHelpMenu::everyPageHasItsIdea_data() {
    QTest::addColumn<int>("page");
    QTest::addColumn<QString>("idea");
    QTest::newRow("accounting") << static_cast<int>(ScenarioPage::accounting)
                                << QStringLiteral("6·tokens·parameters");
    QTest::newRow("inference") << static_cast<int>(ScenarioPage::inference)
                               << QStringLiteral("decode is memory-bound");
    QTest::newRow("formats") << static_cast<int>(ScenarioPage::formats) << QStringLiteral("57344");
    QTest::newRow("tensor") << static_cast<int>(ScenarioPage::tensor) << QStringLiteral(".contiguous()");
    QTest::newRow("benchmarks") << static_cast<int>(ScenarioPage::benchmarks) << QStringLiteral("MFU");
    QTest::newRow("roofline") << static_cast<int>(ScenarioPage::roofline) << QStringLiteral("ridge");
    QTest::newRow("training") << static_cast<int>(ScenarioPage::training) << QStringLiteral("fan_in");
}

void TestHelpMenu::everyPageHasItsIdea() {
    QFETCH(int, page);
    QFETCH(QString, idea);
    const QString help = HelpMenu::pageHelp(static_cast<ScenarioPage>(page));
    QVERIFY2(help.contains(idea), qPrintable(help));
    QVERIFY(help.contains(QStringLiteral("Lecture idea")));
}

void TestHelpMenu::menuOpensThePageInFront() {
    MainWindow w;
    QStringList titles;
    for (QAction* a : w.menuBar()->actions())
        titles << a->text().remove(QLatin1Char('&'));
    QVERIFY2(titles.contains(QStringLiteral("Help")), qPrintable(titles.join(QLatin1Char(','))));
    QVERIFY(titles.indexOf(QStringLiteral("Edit")) < titles.indexOf(QStringLiteral("Help")));
    for (const char* name : {"helpPage", "helpShortcuts", "helpCommandLine", "helpAbout"})
        QVERIFY2(w.findChild<QAction*>(QString::fromLatin1(name)), name);
    w.pages()->setCurrentWidget(w.rooflinePage());
    w.findChild<QAction*>(QStringLiteral("helpPage"))->trigger();
    auto* box = w.findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY(box->text().contains(QStringLiteral("Roofline")));
}

void TestHelpMenu::shortcutsComeFromTheActions() {
    MainWindow w;
    const QString html = HelpMenu::shortcutsHelp(w);
    QVERIFY2(html.contains(QStringLiteral("Copy as command")), qPrintable(html));
    QVERIFY(html.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C).toString(QKeySequence::NativeText)));
    QVERIFY(html.contains(QStringLiteral("F5")));
}

// The tour's keys (→, PgDn, Space, Esc…) are no QAction's: the list reads them from the table the tour
// acts on. It left them out.
void TestHelpMenu::shortcutsListTheTourKeys() {
    MainWindow w;
    const QString html = HelpMenu::shortcutsHelp(w);
    QVERIFY(!tourKeys().empty());
    for (const TourKey& k : tourKeys()) {
        const QString key = QKeySequence(k.key).toString(QKeySequence::NativeText);
        QVERIFY2(html.contains(QStringLiteral("<b>%1</b>").arg(key.toHtmlEscaped())) ||
                     html.contains(QStringLiteral(", %1</b>").arg(key.toHtmlEscaped())),
                 qPrintable(key + QStringLiteral(" not in ") + html));
        QVERIFY2(html.contains(tourCommandName(k.command).toHtmlEscaped()), qPrintable(html));
    }
    QVERIFY(html.contains(QKeySequence(Qt::Key_PageDown).toString(QKeySequence::NativeText)));
    QVERIFY(html.contains(QKeySequence(Qt::Key_Space).toString(QKeySequence::NativeText)));
}

void TestHelpMenu::commandLinePointsToTheContract() {
    const QString html = HelpMenu::commandLineHelp();
    QVERIFY(html.contains(QStringLiteral("docs/cli.md")));
    QVERIFY(html.contains(QStringLiteral("Copy as command")));
}

void TestHelpMenu::aboutNamesTheLibraries() {
    const QString about = HelpMenu::aboutText();
    QVERIFY2(about.contains(QStringLiteral("Qt %1").arg(QString::fromLatin1(qVersion()))), qPrintable(about));
    QVERIFY(about.contains(chartLibraryVersion()));
    QVERIFY(chartLibraryVersion().contains(QRegularExpression(QStringLiteral("\\d+\\.\\d+"))));
    QVERIFY(!chartLibraryVersion().isEmpty());
    for (const napkin::BackendEntry& e : napkin::listCpuBackends())
        if (e.name == "onednn" && e.available)
            QVERIFY(about.contains(QStringLiteral("oneDNN %1").arg(QString::fromStdString(e.version))));
    QVERIFY(about.contains(QStringLiteral("CUDA")));
}

QTEST_MAIN(TestHelpMenu)
#include "tst_help_menu.moc"
