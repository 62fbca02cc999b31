// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios in the window: every control of every page survives save → open in a fresh window, and a
// malformed, truncated or future-version file is refused with a message and changes no control.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/document/recent_files.h"
#include "app/formats/number_formats_page.h"
#include "app/inference/inference_page.h"
#include "app/roofline/roofline_page.h"
#include "app/shell/main_window.h"
#include "app/tensor/tensor_page.h"
#include "app/training/data_lesson_panel.h"
#include "app/training/init_lesson_panel.h"
#include "app/training/training_page.h"
#include "tests/support/scenario_samples.h"
#include "widgets/charts/roofline_chart.h"
#include "widgets/charts/series_chart.h"
#include "widgets/controls/number_field.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace napkin;

namespace {

// A token file that exists (the Training tab warns about one that does not): 64 uint16 tokens.
std::string tokenFile() {
    static const QString path = [] {
        QString p = QDir::temp().filePath(
            QStringLiteral("tst_scenario_window-tokens-%1.bin").arg(QCoreApplication::applicationPid()));
        QFile f(p);
        if (f.open(QIODevice::WriteOnly))
            f.write(QByteArray(128, '\x01'));
        return p;
    }();
    return path.toStdString();
}

// Every control away from a fresh window's value, and only values this machine can show (the CPU
// backend; the four tick boxes; a step inside the chain; a token file that exists; sizes the lesson
// panels recompute quickly).
Scenario everyControlChanged() {
    Scenario s = everyFieldChanged();
    s.accounting.input.batch = 8;
    s.benchmarks.device = "cpu";
    TrainingScenario& t = s.training;
    t.lesson = TrainingLesson::data;
    t.init = {16, 3, 42}; // small, so that the recompute it starts is quick
    t.determinism.steps = 10;
    t.data.path = tokenFile();
    t.data.demoMegabytes = 2;
    t.data.batch = 2;
    t.data.context = 4;
    t.data.batches = 3;
    return s;
}

void compareSections(const Scenario& got, const Scenario& want) {
    QCOMPARE(got.accounting.input.model, want.accounting.input.model);
    QCOMPARE(got.accounting.input, want.accounting.input);
    QCOMPARE(got.accounting.tokensShown, want.accounting.tokensShown);
    QCOMPARE(got.accounting, want.accounting);
    QCOMPARE(got.formats, want.formats);
    QCOMPARE(got.tensor, want.tensor);
    QCOMPARE(got.benchmarks, want.benchmarks);
    QCOMPARE(got.training.lesson, want.training.lesson);
    QCOMPARE(got.training.init, want.training.init);
    QCOMPARE(got.training.determinism, want.training.determinism);
    QCOMPARE(got.training.data, want.training.data);
    QCOMPARE(got.training.mixedPrecision, want.training.mixedPrecision);
    QCOMPARE(got.training, want.training);
    QCOMPARE(got.inference.input, want.inference.input);
    QCOMPARE(got.inference, want.inference);
    QCOMPARE(got.roofline, want.roofline);
    QCOMPARE(got.page, want.page);
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QMessageBox* message(const MainWindow& w) {
    return w.findChild<QMessageBox*>(QStringLiteral("scenarioMessage"));
}

} // namespace

class TestScenarioWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void freshWindowIsTheEngineDefault();
    void applyMovesTheRealControls();
    void saveThenOpenKeepsEveryControl();
    void everyTabInFrontRoundTrips();
    void inferenceTabFeedsTheRoofline();
    void refusedFileChangesNothing_data();
    void refusedFileChangesNothing();
    void unavailableDeviceIsAWarning();
    void missingTokenFileIsAWarning();
    void trainingAppliesOffTheGuiThread();
    void recentFilesNewestFirst();
    void saveFailureLeavesOldFile();
    void customGpuTravelsWithTheScenario(); // last: it adds a part to the session's catalog

private:
    QTemporaryDir m_dir;
};

void TestScenarioWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // settings (recent files) go to a test location
    QSettings().clear();
    QVERIFY(m_dir.isValid());
}

void TestScenarioWindow::cleanupTestCase() {
    QFile::remove(QString::fromStdString(tokenFile()));
}

void TestScenarioWindow::freshWindowIsTheEngineDefault() {
    const MainWindow w;
    compareSections(w.scenario(), Scenario{});
}

void TestScenarioWindow::applyMovesTheRealControls() {
    MainWindow w;
    const Scenario s = everyControlChanged();
    QVERIFY(w.applyScenario(s).isEmpty());
    const AccountingControls* c = w.accountingPage()->controls();
    QCOMPARE(c->mfuField()->value(), 0.37);
    QCOMPARE(c->dimField()->value(), 1024.0); // a hidden row (cruncher's width) is kept too
    QCOMPARE(c->gpuBox()->currentData().toString(), QStringLiteral("A100-SXM"));
    QCOMPARE(w.accountingPage()->presetBox()->currentData().toString(), QStringLiteral("gpt2-small"));
    QCOMPARE(w.numberFormatsPage()->valueEdit()->text(), QStringLiteral("3.140625"));
    QCOMPARE(w.numberFormatsPage()->shapeEdit()->text(), QStringLiteral("12288*4, 12288"));
    QCOMPARE(w.tensorPage()->evaluation().steps.size(), std::size_t(3));
    QCOMPARE(w.findChild<QTabWidget*>()->currentWidget(), static_cast<QWidget*>(w.tensorPage()));
    QCOMPARE(w.benchmarksPage()->findChild<QSpinBox*>(QStringLiteral("dim"))->value(), 512);
    // The charts follow the controls: 1024 A100s, mixed bf16, GiB.
    QVERIFY(w.accountingPage()->lastError().isEmpty());
    QVERIFY(w.accountingPage()->lastResult().has_value());
    compareSections(w.scenario(), s);
}

void TestScenarioWindow::saveThenOpenKeepsEveryControl() {
    const QString path = m_dir.filePath(QStringLiteral("every-control.json"));
    MainWindow a;
    a.applyScenario(everyControlChanged());
    QCOMPARE(a.saveScenario(path), QString());
    MainWindow b;
    QCOMPARE(b.openScenario(path), QString());
    QVERIFY(!message(b));
    compareSections(b.scenario(), everyControlChanged());
    QCOMPARE(b.windowFilePath(), path);
}

// The scenario names the page in front for every tab, the Training tab included (the tab order and
// the scenario's page list are kept in step by hand).
void TestScenarioWindow::everyTabInFrontRoundTrips() {
    MainWindow w;
    auto* tabs = w.findChild<QTabWidget*>();
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 7);
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        const Scenario s = w.scenario();
        tabs->setCurrentIndex(i == 0 ? 1 : 0);
        QVERIFY(w.applyScenario(s).isEmpty());
        QCOMPARE(tabs->currentIndex(), i);
    }
}

// The Roofline tab's decode point is the Inference tab's setting: at open, and after each change.
void TestScenarioWindow::inferenceTabFeedsTheRoofline() {
    MainWindow w;
    const auto decodeIntensity = [&w] {
        for (const auto& p : w.rooflinePage()->chart()->data().points)
            if (p.style == RooflineChartData::Style::analytic)
                return p.flopsPerByte; // decode comes first
        return -1.0;
    };
    QVERIFY(w.inferencePage()->lastResult());
    QCOMPARE(decodeIntensity(), w.inferencePage()->lastResult()->arithmeticIntensity.value);
    Scenario s = w.scenario();
    s.inference.input.batch = 64;
    s.inference.input.context = 128;
    QVERIFY(w.applyScenario(s).isEmpty());
    QCOMPARE(w.inferencePage()->lastInput()->batch, 64.0);
    // 64 sequences of 128 tokens read the weights once for 64 tokens: far more FLOPs per byte than batch 1.
    QCOMPARE(decodeIntensity(), w.inferencePage()->lastResult()->arithmeticIntensity.value);
    QVERIFY(decodeIntensity() > 50);
}

void TestScenarioWindow::refusedFileChangesNothing_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("why");
    QFile valid(QFINDTESTDATA("../../fuzz/corpus/fuzz_scenario/v2-defaults.json"));
    QVERIFY(valid.open(QIODevice::ReadOnly));
    const QByteArray text = valid.readAll();
    QTest::newRow("garbage") << QByteArray("\x89PNG\r\n\x1a\n\0\0binary", 16) << "not valid JSON";
    QTest::newRow("truncated") << text.left(text.size() / 2) << "not valid JSON";
    QTest::newRow("empty") << QByteArray() << "not valid JSON";
    QTest::newRow("future version") << QByteArray(text).replace("\"version\": 2", "\"version\": 7")
                                    << "newer Napkin";
    QTest::newRow("mfu out of range")
        << QByteArray(text).replace("\"mfu\": 0.5", "\"mfu\": 5") << "accounting.mfu";
    QTest::newRow("benchmarks bad") << QByteArray(text).replace("\"steps\": 50", "\"steps\": -50")
                                    << "benchmarks.steps";
    QFile training(QFINDTESTDATA("../../fuzz/corpus/fuzz_scenario/v2-training.json"));
    QVERIFY(training.open(QIODevice::ReadOnly));
    const QByteArray trainingText = training.readAll();
    QTest::newRow("last section bad")
        << QByteArray(trainingText).replace("\"steps\": 1000", "\"steps\": 6000")
        << "training.mixed_precision.steps: must be from 10 to 5000";
}

// The last row matters most: a bad field in the last section must not leave the first sections applied.
void TestScenarioWindow::refusedFileChangesNothing() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, why);
    const QString path = m_dir.filePath(QStringLiteral("bad.json"));
    writeFile(path, bytes);
    MainWindow w;
    w.applyScenario(everyControlChanged());
    const Scenario before = w.scenario();
    const QString error = w.openScenario(path);
    QVERIFY2(error.contains(why), qPrintable(error));
    QVERIFY(error.startsWith(path));
    compareSections(w.scenario(), before);
    QMessageBox* box = message(w);
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY(box->text().contains(QStringLiteral("nothing was changed")));
    QVERIFY(box->text().contains(why));
    QVERIFY(!RecentFiles::list(QSettings()).contains(path));
}

void TestScenarioWindow::unavailableDeviceIsAWarning() {
    Scenario s;
    s.benchmarks.device = "tpu";
    MainWindow w;
    const QStringList warnings = w.applyScenario(s);
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.first().contains(QStringLiteral("benchmarks.device: 'tpu'")),
             qPrintable(warnings.first()));
    QCOMPARE(w.scenario().benchmarks.device, std::string("cpu"));
}

// A token file saved on another machine: the path stays typed in, the rest of the tab applies.
void TestScenarioWindow::missingTokenFileIsAWarning() {
    Scenario s = everyControlChanged();
    s.training.data.path = m_dir.filePath(QStringLiteral("no-such-tokens.bin")).toStdString();
    MainWindow w;
    const QStringList warnings = w.applyScenario(s);
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.first().startsWith(QStringLiteral("training.data.path: '%1' does not exist")
                                             .arg(QString::fromStdString(s.training.data.path))),
             qPrintable(warnings.first()));
    compareSections(w.scenario(), s);
    QCOMPARE(w.trainingPage()->dataPanel()->pathEdit()->text(), QString::fromStdString(s.training.data.path));
    // The same through a file: opened, with the warning shown.
    const QString path = m_dir.filePath(QStringLiteral("missing-tokens.json"));
    writeFile(path, QByteArray::fromStdString(writeScenario(s)));
    MainWindow b;
    QCOMPARE(b.openScenario(path), QString());
    compareSections(b.scenario(), s);
    QMessageBox* box = message(b);
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("training.data.path")), qPrintable(box->text()));
    // The demo file (an empty path) is made on demand: no warning whether it exists or not.
    Scenario demo;
    demo.training.data.path.clear();
    QVERIFY(MainWindow().applyScenario(demo).isEmpty());
}

// Applying returns at once: the panels' runs go to their workers and the charts follow when done.
void TestScenarioWindow::trainingAppliesOffTheGuiThread() {
    {
        // The largest runs the panels offer (seconds of work each on this machine's CPU); closing the
        // window cancels them.
        Scenario heavy;
        heavy.training.init = {2048, 64, 1};
        heavy.training.determinism.steps = 2000;
        heavy.training.mixedPrecision.steps = 5000;
        MainWindow w;
        QElapsedTimer clock;
        clock.start();
        QVERIFY(w.applyScenario(heavy).isEmpty());
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(w.scenario().training, heavy.training); // the controls show it at once
    }
    MainWindow w;
    InitLessonPanel* init = w.trainingPage()->initPanel();
    QSignalSpy initDone(init, &InitLessonPanel::updated);
    QSignalSpy dataDone(w.trainingPage()->dataPanel(), &DataLessonPanel::updated);
    QVERIFY(w.applyScenario(everyControlChanged()).isEmpty());
    QCOMPARE(init->dimSlider()->value(), 4); // D = 16
    // The fresh window's first run is superseded: the chart gets the scenario's D and L.
    QVERIFY(initDone.wait(20000));
    QCOMPARE(init->chart()->series().size(), std::size_t(3));
    QCOMPARE(init->chart()->series().front().x.size(), std::size_t(4)); // layers 0..3
    // The token file is drawn from: 3 batches of 2 windows of 4 int32 tokens.
    QVERIFY(!dataDone.empty() || dataDone.wait(20000));
    QCOMPARE(w.trainingPage()->dataPanel()->batchTable()->rowCount(), 2);
    QCOMPARE(w.trainingPage()->dataPanel()->batchTable()->columnCount(), 5);
}

void TestScenarioWindow::recentFilesNewestFirst() {
    QSettings().clear();
    MainWindow w;
    QStringList saved;
    for (int i = 0; i < RecentFiles::kMaximum + 2; ++i) {
        saved.prepend(m_dir.filePath(QStringLiteral("recent-%1.json").arg(i)));
        QCOMPARE(w.saveScenario(saved.first()), QString());
    }
    QCOMPARE(w.openScenario(saved.at(3)), QString()); // moves to the front, no duplicate
    const QStringList recent = RecentFiles::list(QSettings());
    QCOMPARE(recent.size(), RecentFiles::kMaximum);
    QCOMPARE(recent.first(), saved.at(3));
    QCOMPARE(recent.at(1), saved.at(0));
    QCOMPARE(recent.count(saved.at(3)), 1);
    // The File menu lists them; choosing one opens it.
    QMenu* menu = nullptr;
    for (QMenu* m : w.findChildren<QMenu*>())
        if (m->title() == QStringLiteral("Open &recent"))
            menu = m;
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), RecentFiles::kMaximum);
    QCOMPARE(menu->actions().at(1)->toolTip(), saved.at(0));
    menu->actions().at(1)->trigger();
    QCOMPARE(w.windowFilePath(), saved.at(0));
}

// QSaveFile: the old file is replaced only by a complete new one.
void TestScenarioWindow::saveFailureLeavesOldFile() {
    const QString path = m_dir.filePath(QStringLiteral("keep.json"));
    MainWindow w;
    QCOMPARE(w.saveScenario(path), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray before = f.readAll();
    f.close();
    QVERIFY(!w.saveScenario(m_dir.path()).isEmpty()); // a directory: cannot be written
    QVERIFY(!w.saveScenario(m_dir.filePath(QStringLiteral("no/such/dir/x.json"))).isEmpty());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    // No temporary files left next to it.
    QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("*keep*")}, QDir::Files | QDir::Hidden).size(), 1);
}

// A GPU of the user's own, chosen on the pages, is written into the scenario and known again when the file
// is opened (here in the same process, whose session already has it; tst_scenario_gpus reads it cold).
void TestScenarioWindow::customGpuTravelsWithTheScenario() {
    GpuSpec mine = *GpuCatalog::builtIn().find("A100-SXM");
    mine.id = "Window-A100";
    mine.name = "Window A100";
    mine.source = "user defined";
    MainWindow w;
    Scenario s = w.scenario();
    s.gpus.parts = {mine};
    s.accounting.input.gpu = mine.id;
    s.accounting.preset.clear();
    s.inference.input.gpu = mine.id;
    QVERIFY(w.applyScenario(s).isEmpty());
    QCOMPARE(w.accountingPage()->controls()->gpuBox()->currentData().toString(), QStringLiteral("Window-A100"));
    QVERIFY2(w.accountingPage()->lastError().isEmpty(), qPrintable(w.accountingPage()->lastError()));
    const Scenario saved = w.scenario();
    QCOMPARE(saved.gpus.parts.size(), std::size_t(1));
    QCOMPARE(saved.gpus.parts.front().id, std::string("Window-A100"));
    const ScenarioParse back = parseScenario(writeScenario(saved));
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->accounting.input.gpu, std::string("Window-A100"));
}

QTEST_MAIN(TestScenarioWindow)
#include "tst_scenario_window.moc"
