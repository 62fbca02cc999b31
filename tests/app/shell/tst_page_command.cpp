// SPDX-License-Identifier: GPL-3.0-or-later
// One answer everywhere: the accounting and inference pages exported as JSON (napkin --export FILE.json)
// are napkin-cli's documents, field by field, for every preset; the `command` each names, run, prints the
// same document; and Edit ▸ Copy as command gives the line for the page in front.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/hardware/gpu_chooser_box.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/inference/inference_page.h"
#include "app/shell/command_line.h"
#include "app/shell/headless_export.h"
#include "app/shell/main_window.h"
#include "app/shell/page_command.h"
#include "app/tensor/tensor_page.h"
#include "app/training/training_page.h"
#include "engine/hardware/custom_gpu_form.h"
#include "tests/support/cli_outcome.h"
#include "tests/support/command_words.h"

#include <nlohmann/json.hpp>

#include <QAction>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QLineEdit>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

namespace {

std::vector<std::string> words(const QString& line) {
    return napkin::test::commandWords(line.toStdString());
}

nlohmann::json exported(const QString& page, const QString& preset) {
    QTemporaryDir dir;
    CommandLine cl;
    cl.action = CommandLine::Action::exportChart;
    cl.exportPath = dir.filePath(QStringLiteral("page.json"));
    cl.page = page;
    cl.preset = preset;
    const HeadlessExportResult r = runHeadlessExport(cl);
    if (r.exitCode != 0)
        qFatal("export failed: %s", qPrintable(r.error));
    QFile file(cl.exportPath);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("no export written");
    return nlohmann::json::parse(file.readAll().toStdString());
}

nlohmann::json cli(const std::vector<std::string>& args) {
    const napkin::test::CliOutcome o = napkin::test::runCli(args);
    if (o.status != 0)
        qFatal("napkin-cli failed: %s", o.err.c_str());
    return nlohmann::json::parse(o.out);
}

} // namespace

class TestPageCommand : public QObject {
    Q_OBJECT
private slots:
    void accountingExportIsTheCliDocument();
    void inferenceExportIsTheCliDocument();
    void copyAsCommandNamesThePageInFront();
    void copyAsCommandLeavesRefusedTextOut();
    void copyAsCommandNamesTheCustomGpusFile();
    void trainingLessonsCopyAsTheirLessonLines();
};

void TestPageCommand::accountingExportIsTheCliDocument() {
    for (const Preset& p : builtInPresets()) {
        const nlohmann::json page = exported(QStringLiteral("accounting"), p.id);
        const nlohmann::json command = cli({"account", "--preset", p.id.toStdString(), "--json"});
        for (auto it = command.begin(); it != command.end(); ++it)
            QVERIFY2(page.contains(it.key()) && page[it.key()] == it.value(),
                     qPrintable(p.id + QStringLiteral(": ") + QString::fromStdString(it.key())));
        QCOMPARE(page.size(), command.size());
        const QString line = QString::fromStdString(page["command"].get<std::string>());
        QVERIFY(cli(words(line)) == page);
    }
}

void TestPageCommand::inferenceExportIsTheCliDocument() {
    for (const QString& preset : {QStringLiteral("llama3-8b"), QStringLiteral("gpt3-175b")}) {
        const nlohmann::json page = exported(QStringLiteral("inference"), preset);
        const QString line = QString::fromStdString(page["command"].get<std::string>());
        nlohmann::json document = cli(words(line));
        document.erase("weights_format"); // how the CLI chose its format (napkin-cli infer only, docs/cli.md)
        QVERIFY2(document == page, qPrintable(line));
    }
}

// Every page's Copy as command: the line napkin-cli runs (the Benchmarks page: one bench matmul per ticked
// type, then bench train), or, where there is none, a status bar message that says so. The Benchmarks and
// Training pages once had the action disabled: it copied nothing and the previous copy's message stayed.
void TestPageCommand::copyAsCommandNamesThePageInFront() {
    MainWindow window;
    QAction* copy = window.findChild<QAction*>(QStringLiteral("copyAsCommand"));
    QVERIFY(copy);
    auto* benchmarks = window.findChild<BenchmarksPage*>();
    QVERIFY(benchmarks);
    napkin::BenchmarksScenario small = benchmarks->scenario(); // quick to run here
    // tf32 stays ticked but the CPU refuses it (its box is disabled): no line for it, which would exit 2.
    small.dtypes = {napkin::BenchDtype::fp32, napkin::BenchDtype::tf32};
    small.sizes = "16";
    small.dim = 8;
    small.layers = 2;
    small.batch = 4;
    small.steps = 2;
    QVERIFY(benchmarks->applyScenario(small).isEmpty());
    const QStringList expected{
        QStringLiteral("napkin-cli account "),      QStringLiteral("napkin-cli infer "),
        QStringLiteral("napkin-cli dtype "),        QStringLiteral("napkin-cli tensor "),
        QStringLiteral("napkin-cli bench matmul "), QStringLiteral("napkin-cli roofline "),
        QStringLiteral("napkin-cli lesson init ")};
    for (int tab = 0; tab < window.pages()->count(); ++tab) {
        window.pages()->setCurrentIndex(tab);
        const QString command = window.pageCommand();
        QVERIFY(copy->isEnabled());
        const QString before = QGuiApplication::clipboard()->text();
        copy->trigger();
        const QString message = window.statusBar()->currentMessage();
        if (expected[tab].isEmpty()) {
            QVERIFY(command.isEmpty());
            QCOMPARE(QGuiApplication::clipboard()->text(), before);
            QVERIFY2(message.startsWith(QStringLiteral("No napkin-cli line reproduces the ")) &&
                         message.contains(window.pages()->tabText(tab).remove(QLatin1Char('&'))),
                     qPrintable(message));
            continue;
        }
        QVERIFY2(command.startsWith(expected[tab]), qPrintable(command));
        QCOMPARE(QGuiApplication::clipboard()->text(), command);
        QVERIFY2(message.startsWith(QStringLiteral("Copied")), qPrintable(message));
        const QStringList lines = command.split(QLatin1Char('\n'));
        if (expected[tab].contains(QStringLiteral("bench"))) {
            QCOMPARE(lines.size(), 2);
            QCOMPARE(lines[0], QStringLiteral("napkin-cli bench matmul --dtype fp32 --sizes 16 --json"));
            QVERIFY2(lines[1].startsWith(QStringLiteral("napkin-cli bench train --dim 8 --layers 2 --batch 4 "
                                                        "--steps 2 ")),
                     qPrintable(lines[1]));
        }
        for (const QString& line : lines) {
            const napkin::test::CliOutcome o = napkin::test::runCli(words(line));
            QVERIFY2(o.status == 0, qPrintable(line + QStringLiteral(" → ") + QString::fromStdString(o.err)));
        }
    }
}

// The Tensor layout page refuses the shape "2.5,3" (sizes are whole numbers) and goes on showing x of shape
// (2, 3); Copy as command copied the refused text, a line napkin-cli refuses with exit 2. It copies what the
// page shows, as it does while a new shape is typed but not yet applied.
void TestPageCommand::copyAsCommandLeavesRefusedTextOut() {
    MainWindow window;
    auto* tensor = window.findChild<TensorPage*>();
    QVERIFY(tensor);
    window.pages()->setCurrentWidget(tensor);
    QLineEdit* shape = tensor->findChildren<QLineEdit*>().value(0); // the first field: the shape of x
    QVERIFY(shape && shape->text() == QStringLiteral("2,3"));
    shape->selectAll();
    QTest::keyClicks(shape, QStringLiteral("2.5,3"));
    QVERIFY(!tensor->shapeErrorText().isEmpty()); // refused at once
    QTest::keyClick(shape, Qt::Key_Return);
    QVERIFY(!tensor->shapeErrorText().isEmpty());
    QCOMPARE(tensor->evaluation().steps.front().layout.shape, (std::vector<int64_t>{2, 3}));
    const QString command = window.pageCommand();
    QVERIFY2(command.contains(QStringLiteral("--shape 2,3 ")), qPrintable(command));
    const napkin::test::CliOutcome o = napkin::test::runCli(words(command));
    QVERIFY2(o.status == 0, qPrintable(command + QStringLiteral(" → ") + QString::fromStdString(o.err)));
}

// A GPU the user defined ("Custom GPU…") is known to this session only: Copy as command left it out, and
// napkin-cli refused the line's --gpu (exit 2). The line names a catalog file that holds the part, and run,
// prints the page's own document, `command` included, on the Accounting and the Inference page.
void TestPageCommand::copyAsCommandNamesTheCustomGpusFile() {
    QStandardPaths::setTestModeEnabled(true); // the file goes to a test folder, not the user's data
    napkin::CustomGpuForm form; // an A100 SXM's datasheet figures, but 96 GB: no built-in part's answers
    form.name = "Copied A100";
    form.memoryGb = "96";
    form.bandwidthGbPerSecond = "2039";
    form.peaksTflops = {"19.5", "156", "312", "312", "none"};
    form.tdpWatts = "400";
    const napkin::CustomGpuCheck check = napkin::checkCustomGpu(form);
    QVERIFY(check.gpu);
    SessionGpuCatalog::instance().add(*check.gpu);
    MainWindow window;
    auto* accountingBox =
        static_cast<GpuChooserBox*>(window.findChild<AccountingPage*>()->controls()->gpuBox());
    QVERIFY(accountingBox->selectId(QStringLiteral("Copied-A100")));
    auto* inferenceBox = window.findChild<InferencePage*>()->findChild<GpuChooserBox*>();
    QVERIFY(inferenceBox && inferenceBox->selectId(QStringLiteral("Copied-A100")));

    window.pages()->setCurrentIndex(0); // Accounting
    QString error;
    QString line = window.pageCommand(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(line.contains(QStringLiteral(" --gpu Copied-A100 ")) &&
                 line.contains(QStringLiteral(" --gpu-catalog ")),
             qPrintable(line));
    const PageDocument accounting = accountingPageDocument(window.scenario().accounting.input);
    QVERIFY2(accounting.ok(), qPrintable(accounting.error));
    QCOMPARE(QString::fromStdString(cli(words(line)).dump(1)),
             QString::fromStdString(nlohmann::json::parse(accounting.json.toStdString()).dump(1)));

    window.pages()->setCurrentIndex(1); // Inference
    line = window.pageCommand(&error);
    QVERIFY2(line.startsWith(QStringLiteral("napkin-cli infer ")) &&
                 line.contains(QStringLiteral(" --gpu-catalog ")),
             qPrintable(line));
    nlohmann::json served = cli(words(line));
    served.erase("weights_format"); // how the CLI chose its format (napkin-cli infer only, docs/cli.md)
    const PageDocument inference = inferencePageDocument(window.scenario().inference.input);
    QVERIFY2(inference.ok(), qPrintable(inference.error));
    QCOMPARE(QString::fromStdString(served.dump(1)),
             QString::fromStdString(nlohmann::json::parse(inference.json.toStdString()).dump(1)));
}

// Issue 35: the Training page copied nothing. Each lesson now copies the `napkin-cli lesson` line that runs
// it with the panel's settings, and the line runs.
void TestPageCommand::trainingLessonsCopyAsTheirLessonLines() {
    MainWindow window;
    TrainingPage* training = window.trainingPage();
    QVERIFY(training);
    window.pages()->setCurrentWidget(training);
    QTemporaryDir dir;
    const QString tokens = dir.filePath(QStringLiteral("tokens.bin"));
    QCOMPARE(
        napkin::test::runCli({"lesson", "data", "--file", tokens.toStdString(), "--generate", "1M"}).status,
        0);
    napkin::TrainingScenario t = training->scenario();
    t.init = {64, 4, 3};
    t.determinism.steps = 10;
    t.determinism.datasetSeed = 7;
    t.determinism.initSeed[1] = 4;
    t.data.path = tokens.toStdString();
    t.data.batch = 3;
    t.data.context = 5;
    t.data.seed = 9;
    t.mixedPrecision.steps = 10;
    const std::vector<std::pair<napkin::TrainingLesson, QString>> lessons{
        {napkin::TrainingLesson::init,
         QStringLiteral("napkin-cli lesson init --dim 64 --layers 4 --seed 3 --json")},
        {napkin::TrainingLesson::determinism,
         QStringLiteral("napkin-cli lesson determinism --steps 10 --seed-task 7 --seed-init 0 --seed-data 1 "
                        "--b-seed-init 4 --b-seed-data 2 --json")},
        {napkin::TrainingLesson::data,
         QStringLiteral("napkin-cli lesson data --file ") + tokens +
             QStringLiteral(" --dtype uint16 --batch 3 --context 5 --batches 1 --seed 9 --json")},
        {napkin::TrainingLesson::mixedPrecision,
         QStringLiteral("napkin-cli lesson mixed-precision --steps 10 --json")}};
    for (const auto& [lesson, expected] : lessons) {
        t.lesson = lesson;
        QVERIFY(training->applyScenario(t).isEmpty());
        const QString command = window.pageCommand();
        QCOMPARE(command, expected);
        const napkin::test::CliOutcome o = napkin::test::runCli(words(command));
        QVERIFY2(o.status == 0, qPrintable(command + QStringLiteral(" → ") + QString::fromStdString(o.err)));
    }
}

QTEST_MAIN(TestPageCommand)
#include "tst_page_command.moc"
