// SPDX-License-Identifier: GPL-3.0-or-later
// Edit ▸ Undo, Redo and Reset page, and the File menu's keys, as a user drives them: real key presses and
// mouse drags on the window's controls. An undone edit gives back the scenario from before it byte for
// byte (writeScenario's text), a number typed is one step and a slider dragged is one step.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/document/recent_files.h"
#include "app/document/scenario_undo.h"
#include "app/formats/number_formats_page.h"
#include "app/shell/main_window.h"
#include "engine/models/model_zoo.h"
#include "tests/support/scenario_samples.h"
#include "widgets/controls/log_slider_field.h"
#include "widgets/controls/number_field.h"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace napkin;

namespace {

std::string text(const MainWindow& w) {
    return writeScenario(w.scenario());
}

// Every page's controls, whichever page is in front.
std::string controlsText(const MainWindow& w) {
    Scenario s = w.scenario();
    s.page = ScenarioPage::accounting;
    return writeScenario(s);
}

QAction* action(const MainWindow& w, const char* name) {
    return w.findChild<QAction*>(QLatin1String(name));
}

void showActive(MainWindow& w) {
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
}

// Lets the step taken after each input run (it is queued behind the input).
void settle() {
    for (int pass = 0; pass < 3; ++pass)
        QCoreApplication::processEvents();
}

// Types `value` into a number field as a user does: click into it, select all, type, Enter.
void typeInto(NumberField* field, const QString& value) {
    QLineEdit* edit = field->lineEdit();
    QTest::mouseClick(edit, Qt::LeftButton);
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, value);
    QTest::keyClick(edit, Qt::Key_Return);
    settle();
}

// Drags `slider`'s handle by `dx` pixels in a few moves, with the button held throughout.
void drag(QSlider* slider, int dx) {
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    option.upsideDown = slider->invertedAppearance();
    const QPoint handle =
        slider->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider).center();
    QTest::mousePress(slider, Qt::LeftButton, {}, handle);
    for (int i = 1; i <= 5; ++i)
        QTest::mouseMove(slider, handle + QPoint(dx * i / 5, 0));
    QTest::mouseRelease(slider, Qt::LeftButton, {}, handle + QPoint(dx, 0));
    settle();
}

} // namespace

class TestScenarioUndo : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void typedNumberIsOneStepUndoneToTheByte();
    void sliderDragIsOneStep();
    void undoAndRedoWalkSeveralEdits();
    void keysUndoAndRedo();
    void changeBetweenInputsIsItsOwnStep();
    void everyPageComesBackToTheByte();
    void resetPageRestoresTheDefaultsUndoably();
    void openRecentListsASavedFileAndOpensIt();
    void openRecentListsAnOpenedModelConfig();
    void saveKeyWritesTheOpenedFile();
    void shortcutsAreBound_data();
    void shortcutsAreBound();
    void inputCheckIsCheap();

private:
    QTemporaryDir m_dir;
};

void TestScenarioUndo::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // settings (recent files) go to a test location
    QSettings().clear();
    QVERIFY(m_dir.isValid());
}

void TestScenarioUndo::typedNumberIsOneStepUndoneToTheByte() {
    MainWindow w;
    showActive(w);
    NumberField* batch = w.accountingPage()->controls()->batchField();
    const std::string before = text(w);
    typeInto(batch, QStringLiteral("96"));
    QCOMPARE(w.scenario().accounting.input.batch, 96.0);
    const std::string after = text(w);
    QVERIFY(after != before);
    QUndoStack* stack = w.undo()->stack();
    QCOMPARE(stack->count(), 1); // the click, three keys and Enter: one edit
    QVERIFY2(stack->undoText().contains(QStringLiteral("accounting")), qPrintable(stack->undoText()));
    action(w, "undo")->trigger();
    QCOMPARE(text(w), before);
    QCOMPARE(batch->value(), Scenario{}.accounting.input.batch);
    action(w, "redo")->trigger();
    QCOMPARE(text(w), after);
    QCOMPARE(batch->value(), 96.0);
}

void TestScenarioUndo::sliderDragIsOneStep() {
    MainWindow w;
    showActive(w);
    QSlider* tokens = w.accountingPage()->controls()->tokensField()->slider();
    QVERIFY(tokens->isVisible());
    const std::string before = text(w);
    const int start = tokens->value();
    drag(tokens, tokens->width() / 4);
    QVERIFY(tokens->value() != start);
    QVERIFY(text(w) != before);
    QCOMPARE(w.undo()->stack()->count(), 1); // five moves, one step
    action(w, "undo")->trigger();
    QCOMPARE(text(w), before);
    QCOMPARE(tokens->value(), start);
}

// Two edits in two controls are two steps: undone one at a time, newest first, and redone in order.
void TestScenarioUndo::undoAndRedoWalkSeveralEdits() {
    MainWindow w;
    showActive(w);
    AccountingControls* c = w.accountingPage()->controls();
    const std::string start = text(w);
    typeInto(c->batchField(), QStringLiteral("24"));
    const std::string afterBatch = text(w);
    typeInto(c->gpusField(), QStringLiteral("64"));
    const std::string afterGpus = text(w);
    QCOMPARE(w.undo()->stack()->count(), 2);
    action(w, "undo")->trigger();
    QCOMPARE(text(w), afterBatch);
    action(w, "undo")->trigger();
    QCOMPARE(text(w), start);
    QVERIFY(!action(w, "undo")->isEnabled());
    action(w, "redo")->trigger();
    QCOMPARE(text(w), afterBatch);
    action(w, "redo")->trigger();
    QCOMPARE(text(w), afterGpus);
    QVERIFY(!action(w, "redo")->isEnabled());
}

// Ctrl+Z and Ctrl+Shift+Z in the window (a text field keeps them for its own text).
void TestScenarioUndo::keysUndoAndRedo() {
    MainWindow w;
    showActive(w);
    const std::string before = text(w);
    typeInto(w.accountingPage()->controls()->batchField(), QStringLiteral("48"));
    const std::string after = text(w);
    w.accountingPage()->presetBox()->setFocus();
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    settle();
    QCOMPARE(text(w), before);
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    settle();
    QCOMPARE(text(w), after);
}

// An opened file (here applied by hand, as a dialog's OK does between inputs) is a step of its own: the
// next edit's undo stops at it.
void TestScenarioUndo::changeBetweenInputsIsItsOwnStep() {
    MainWindow w;
    showActive(w);
    const std::string start = text(w);
    w.undo()->record(); // the window as it opened
    Scenario opened = w.scenario();
    opened.accounting.input.gpus = 256;
    QVERIFY(w.applyScenario(opened).isEmpty());
    const std::string afterOpen = text(w);
    typeInto(w.accountingPage()->controls()->batchField(), QStringLiteral("12"));
    QCOMPARE(w.undo()->stack()->count(), 2);
    action(w, "undo")->trigger();
    QCOMPARE(text(w), afterOpen);
    action(w, "undo")->trigger();
    QCOMPARE(text(w), start);
}

// Every control of every page changed at once (an opened file does that) and undone: every page as before,
// byte for byte, and redone as it was.
void TestScenarioUndo::everyPageComesBackToTheByte() {
    MainWindow w;
    const std::string before = controlsText(w);
    w.undo()->record();
    Scenario s = everyFieldChanged();
    s.benchmarks.device = "cpu";   // what this machine has
    s.training.data.path.clear();  // the demo tokens, made on demand
    s.training.init = {16, 3, 42}; // a quick recompute
    w.applyScenario(s);
    const std::string after = controlsText(w);
    QVERIFY(after != before);
    w.undo()->record(QStringLiteral("open"));
    QCOMPARE(w.undo()->stack()->count(), 1);
    action(w, "undo")->trigger();
    QCOMPARE(controlsText(w), before);
    QCOMPARE(w.scenario().page, s.page); // undo shows the page the change was seen on
    action(w, "redo")->trigger();
    QCOMPARE(controlsText(w), after);
}

void TestScenarioUndo::resetPageRestoresTheDefaultsUndoably() {
    const MainWindow fresh;
    MainWindow w;
    showActive(w);
    Scenario edited = w.scenario();
    edited.accounting.input.gpus = 512;
    edited.accounting.input.mfu = 0.3;
    edited.accounting.binaryUnits = true;
    edited.formats.value = 3.140625;
    QVERIFY(w.applyScenario(edited).isEmpty());
    const std::string before = text(w);
    QCOMPARE(w.scenario().page, ScenarioPage::accounting);
    action(w, "resetPage")->trigger();
    const Scenario reset = w.scenario();
    QCOMPARE(reset.accounting, fresh.scenario().accounting);
    QCOMPARE(reset.formats, edited.formats); // the other pages keep theirs
    QCOMPARE(w.accountingPage()->controls()->gpusField()->value(), fresh.scenario().accounting.input.gpus);
    QVERIFY2(w.undo()->stack()->undoText().contains(QStringLiteral("reset")),
             qPrintable(w.undo()->stack()->undoText()));
    action(w, "undo")->trigger();
    QCOMPARE(text(w), before);
    action(w, "redo")->trigger();
    QCOMPARE(w.scenario().accounting, fresh.scenario().accounting);
}

void TestScenarioUndo::openRecentListsASavedFileAndOpensIt() {
    QSettings().clear();
    const QString path = m_dir.filePath(QStringLiteral("recent.json"));
    std::string saved;
    {
        MainWindow w;
        QAction* recent = action(w, "openRecent");
        QVERIFY(recent);
        QVERIFY(!recent->isEnabled()); // nothing to list yet
        Scenario s = w.scenario();
        s.accounting.input.gpus = 128;
        QVERIFY(w.applyScenario(s).isEmpty());
        saved = text(w);
        QCOMPARE(w.saveScenario(path), QString());
        QVERIFY(recent->isEnabled());
        QCOMPARE(recent->menu()->actions().size(), 1);
    }
    // The next session's window lists it, and choosing it opens it.
    MainWindow w;
    QAction* recent = action(w, "openRecent");
    QVERIFY(recent->isEnabled());
    QMenu* menu = recent->menu();
    QCOMPARE(menu->actions().size(), 1);
    QAction* entry = menu->actions().front();
    QCOMPARE(entry->text(), QStringLiteral("recent.json"));
    QCOMPARE(entry->toolTip(), path);
    QVERIFY(entry->isEnabled());
    QVERIFY(text(w) != saved);
    entry->trigger();
    QCOMPARE(text(w), saved);
    QCOMPARE(w.windowFilePath(), path);
}

// Open recent listed only the scenarios saved or opened, read when the window was built: greyed all
// session for whoever opened model configs (and measured runs) but never saved a scenario.
void TestScenarioUndo::openRecentListsAnOpenedModelConfig() {
    QSettings().clear();
    const ZooModel& zoo = *findZooModel("gemma-2-9b");
    QDir().mkpath(m_dir.filePath(QStringLiteral("gemma")));
    const QString path = m_dir.filePath(QStringLiteral("gemma/config.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(zoo.configJson.data(), qsizetype(zoo.configJson.size()));
    file.close();
    MainWindow w;
    QMenu* fileMenu = w.menuBar()->actions().front()->menu();
    QAction* recent = action(w, "openRecent");
    QVERIFY(!recent->isEnabled());
    QCOMPARE(w.openModelConfig(path), QString());
    fileMenu->popup(QPoint()); // as the user opens the File menu
    fileMenu->hide();
    QVERIFY(recent->isEnabled());
    QCOMPARE(recent->menu()->actions().size(), 1);
    QCOMPARE(recent->menu()->actions().front()->toolTip(), path);
    // Chosen in another window, it opens as the config it is, not as a refused scenario.
    MainWindow next;
    QVERIFY(!next.accountingPage()->showsOpenedModel());
    action(next, "openRecent")->menu()->actions().front()->trigger();
    QVERIFY(next.accountingPage()->showsOpenedModel());
    QVERIFY(!next.findChild<QMessageBox*>());
}

// Ctrl+S writes to the file the window has open, without a dialog.
void TestScenarioUndo::saveKeyWritesTheOpenedFile() {
    const QString path = m_dir.filePath(QStringLiteral("ctrl-s.json"));
    MainWindow w;
    showActive(w);
    QCOMPARE(w.saveScenario(path), QString());
    Scenario s = w.scenario();
    s.accounting.input.gpus = 32;
    QVERIFY(w.applyScenario(s).isEmpty());
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const ScenarioParse back = parseScenario(file.readAll().toStdString());
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->accounting.input.gpus, 32.0);
}

void TestScenarioUndo::shortcutsAreBound_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QKeySequence>("key");
    QTest::newRow("undo") << "undo" << QKeySequence(Qt::CTRL | Qt::Key_Z);
    QTest::newRow("redo") << "redo" << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);
    QTest::newRow("open") << "openScenario" << QKeySequence(Qt::CTRL | Qt::Key_O);
    QTest::newRow("save") << "saveScenario" << QKeySequence(Qt::CTRL | Qt::Key_S);
    QTest::newRow("save as") << "saveScenarioAs" << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S);
}

// Each key belongs to its action and to no other of the window's.
void TestScenarioUndo::shortcutsAreBound() {
    QFETCH(QString, action);
    QFETCH(QKeySequence, key);
    const MainWindow w;
    const auto* a = w.findChild<QAction*>(action);
    QVERIFY(a);
    QVERIFY2(a->shortcuts().contains(key), qPrintable(a->shortcut().toString()));
    for (const QAction* other : w.findChildren<QAction*>())
        if (other != a)
            QVERIFY2(!other->shortcuts().contains(key), qPrintable(other->text()));
}

// Every key press and click reads the window's scenario twice (before the input, and after it): that must
// stay far below what a user feels (a frame, 16 ms), sanitizers and a loaded machine included.
void TestScenarioUndo::inputCheckIsCheap() {
    MainWindow w;
    Scenario s = w.scenario();
    s.accounting.input.gpus = 4;
    QVERIFY(w.applyScenario(s).isEmpty());
    w.undo()->record();
    constexpr int kChecks = 200;
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < kChecks; ++i)
        w.undo()->record();
    const double msPerCheck = double(clock.nsecsElapsed()) / 1e6 / kChecks;
    qInfo("one input's check: %.3f ms (scenario read and compared)", msPerCheck);
    QVERIFY2(2 * msPerCheck < 16, qPrintable(QString::number(msPerCheck)));
    QCOMPARE(w.undo()->stack()->count(), 0); // nothing changed: no step
}

QTEST_MAIN(TestScenarioUndo)
#include "tst_scenario_undo.moc"
