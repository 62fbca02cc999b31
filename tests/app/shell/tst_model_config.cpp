// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Open model config… and a dropped config.json: through the window, each shipped config gives the
// parameter count napkin-cli gives for the same file; a damaged or foreign file shows the engine's
// one-line message and keeps both pages' model; a drop of a file opens it (a scenario as a scenario).
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/inference/inference_controls.h"
#include "app/inference/inference_page.h"
#include "app/shell/main_window.h"
#include "engine/models/hf_config.h"
#include "engine/models/model_zoo.h"
#include "tests/support/cli_outcome.h"
#include "widgets/charts/chart_view.h"

#include <nlohmann/json.hpp>

#include <QAction>
#include <QComboBox>
#include <QMessageBox>
#include <QMimeData>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace napkin;

namespace {

QString writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QMessageBox* message(const MainWindow& w) {
    return w.findChild<QMessageBox*>(QStringLiteral("modelConfigMessage"));
}

void closeMessages(const MainWindow& w) {
    for (QMessageBox* box : w.findChildren<QMessageBox*>())
        delete box;
}

// What both pages account for now.
struct Shown {
    AccountingInput accounting;
    InferenceInput inference;
    bool operator==(const Shown&) const = default;
};

Shown shown(const MainWindow& w) {
    return {w.accountingPage()->controls()->input(), w.inferencePage()->controls()->input()};
}

// A drag of `urls` entering the window and dropped on it; whether the window took it.
bool drop(MainWindow& w, const QList<QUrl>& urls) {
    QMimeData mime;
    mime.setUrls(urls);
    const QPoint at = w.rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent dropped(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &dropped);
    return dropped.isAccepted();
}

} // namespace

class TestModelConfig : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void fileMenuOffersIt();
    void everyShippedConfigCountsAsTheCliDoes_data();
    void everyShippedConfigCountsAsTheCliDoes();
    void badFileKeepsTheModel_data();
    void badFileKeepsTheModel();
    void droppedConfigOpens();
    void droppedBadFileKeepsTheModel();
    void droppedScenarioOpensAsAScenario();
    void dragOfNoFileIsRefused();
    void copyAsCommandNamesTheOpenedFile();

private:
    QTemporaryDir m_dir;
};

void TestModelConfig::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
}

void TestModelConfig::fileMenuOffersIt() {
    MainWindow w;
    QAction* open = w.findChild<QAction*>(QStringLiteral("openModelConfig"));
    QVERIFY(open);
    QVERIFY(open->text().contains(QStringLiteral("model config")));
    QVERIFY(w.acceptDrops());
}

void TestModelConfig::everyShippedConfigCountsAsTheCliDoes_data() {
    QTest::addColumn<QString>("id");
    for (const ZooModel& z : zooModels())
        QTest::newRow(std::string(z.id).c_str()) << QString::fromUtf8(z.id.data(), qsizetype(z.id.size()));
}

// The shipped text written as <id>/config.json, opened through the window, against napkin-cli --config.
void TestModelConfig::everyShippedConfigCountsAsTheCliDoes() {
    QFETCH(QString, id);
    const ZooModel& zoo = *findZooModel(id.toStdString());
    const QString path = writeFile(m_dir.filePath(id + QStringLiteral("/config.json")),
                                   QByteArray(zoo.configJson.data(), qsizetype(zoo.configJson.size())));
    const test::CliOutcome cli = test::runCli({"account", "--config", path.toStdString(), "--json"});
    QVERIFY2(cli.status == 0, cli.err.c_str());
    const double cliParameters = nlohmann::json::parse(cli.out)["parameters"].get<double>();

    MainWindow w;
    const AccountingInput before = w.accountingPage()->controls()->input();
    QCOMPARE(w.openModelConfig(path), QString());
    QVERIFY(!message(w));
    AccountingPage& accounting = *w.accountingPage();
    QVERIFY2(accounting.lastError().isEmpty(), qPrintable(accounting.lastError()));
    QCOMPARE(accounting.lastResult()->parameters.total, cliParameters);
    QCOMPARE(cliParameters, zoo.publishedParameters);
    QCOMPARE(accounting.controls()->input().gpus, before.gpus); // the training and hardware stay
    QCOMPARE(accounting.controls()->input().precision, before.precision);
    const QString label = id + QStringLiteral("/config.json (");
    QVERIFY2(accounting.presetBox()->currentText().startsWith(label),
             qPrintable(accounting.presetBox()->currentText()));
    InferencePage& inference = *w.inferencePage();
    QVERIFY2(inference.lastError().isEmpty(), qPrintable(inference.lastError()));
    QCOMPARE(inference.lastResult()->parameters, cliParameters);
    QVERIFY(inference.controls()->presetBox()->currentText().startsWith(label));
    QCOMPARE(inference.scenario().preset, std::string()); // a model of its own
    QCOMPARE(inference.scenario().input.model, readHfConfigFile(path.toStdString()).config->model);
}

void TestModelConfig::badFileKeepsTheModel_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("piece"); // a piece of the engine's one line
    const QByteArray llama = R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
      "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32000, "max_position_embeddings": 4096})";
    QTest::newRow("truncated") << "truncated.json" << llama.left(60) << "not valid JSON";
    QTest::newRow("wrong type") << "wrong-type.json" << QByteArray(llama).replace("4096,", "\"4096\",")
                                << "hidden_size: expected";
    QTest::newRow("unknown model_type")
        << "mamba.json" << QByteArray(llama).replace("llama", "mamba") << "model_type";
    QTest::newRow("tokenizer config")
        << "tokenizer_config.json"
        << QByteArray(R"({"tokenizer_class": "LlamaTokenizer", "bos_token": "<s>"})") << "model_type";
    QTest::newRow("deep nesting") << "deep.json" << QByteArray(100000, '[') + QByteArray(100000, ']')
                                  << "nested deeper than 16";
    QTest::newRow("empty") << "empty.json" << QByteArray() << "";
    QTest::newRow("100 MB") << "huge.json" << QByteArray() << "limit 1048576 bytes"; // made sparse below
    QTest::newRow("a folder") << "folder" << QByteArray() << "";
    QTest::newRow("missing") << "missing.json" << QByteArray() << "";
}

void TestModelConfig::badFileKeepsTheModel() {
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, piece);
    const QString path = m_dir.filePath(QStringLiteral("bad/") + name);
    QDir().mkpath(m_dir.filePath(QStringLiteral("bad")));
    if (name == QStringLiteral("folder")) {
        QDir().mkpath(path);
    } else if (name == QStringLiteral("huge.json")) {
        std::ofstream(path.toStdString()).put('{');
        std::filesystem::resize_file(path.toStdString(),
                                     std::uintmax_t{100} * 1024 * 1024); // sparse: nothing written
    } else if (name != QStringLiteral("missing.json")) {
        writeFile(path, bytes);
    }
    const QString engine = QString::fromStdString(readHfConfigFile(path.toStdString()).error);
    QVERIFY(!engine.isEmpty());
    QVERIFY2(engine.contains(piece), qPrintable(engine));
    QVERIFY(!engine.contains(QLatin1Char('\n'))); // one line

    MainWindow w;
    // A model on screen first, so that "kept" means something other than a fresh page.
    const ZooModel& mistral = *findZooModel("mistral-7b-v0.1");
    QCOMPARE(w.openModelConfig(
                 writeFile(m_dir.filePath(QStringLiteral("good/config.json")),
                           QByteArray(mistral.configJson.data(), qsizetype(mistral.configJson.size())))),
             QString());
    const Shown before = shown(w);
    const QString boxBefore = w.accountingPage()->presetBox()->currentText();
    QCOMPARE(w.openModelConfig(path), engine);
    QVERIFY(shown(w) == before);
    QCOMPARE(w.accountingPage()->presetBox()->currentText(), boxBefore);
    QVERIFY(message(w));
    QVERIFY2(message(w)->text().contains(engine), qPrintable(message(w)->text()));
    QVERIFY(message(w)->text().contains(QStringLiteral("not changed")));
    QVERIFY(w.accountingPage()->lastError().isEmpty());
    closeMessages(w);
}

void TestModelConfig::droppedConfigOpens() {
    const ZooModel& gemma = *findZooModel("gemma-2-9b");
    const QString path = writeFile(m_dir.filePath(QStringLiteral("drop/gemma-2-9b/config.json")),
                                   QByteArray(gemma.configJson.data(), qsizetype(gemma.configJson.size())));
    MainWindow w;
    QVERIFY(drop(w, {QUrl::fromLocalFile(path)}));
    QVERIFY(!message(w));
    QCOMPARE(w.accountingPage()->lastResult()->parameters.total, gemma.publishedParameters);
    QCOMPARE(w.inferencePage()->lastResult()->parameters, gemma.publishedParameters);
    QVERIFY(
        w.accountingPage()->presetBox()->currentText().startsWith(QStringLiteral("gemma-2-9b/config.json")));
}

void TestModelConfig::droppedBadFileKeepsTheModel() {
    const QString path = writeFile(m_dir.filePath(QStringLiteral("drop/tokenizer_config.json")),
                                   R"({"tokenizer_class": "GemmaTokenizer"})");
    MainWindow w;
    const Shown before = shown(w);
    QVERIFY(drop(w, {QUrl::fromLocalFile(path)}));
    QVERIFY(shown(w) == before);
    QVERIFY(message(w));
    QVERIFY(message(w)->text().contains(QString::fromStdString(readHfConfigFile(path.toStdString()).error)));
    closeMessages(w);
}

void TestModelConfig::droppedScenarioOpensAsAScenario() {
    Scenario s;
    s.accounting.input.batch = 7;
    const QString path = m_dir.filePath(QStringLiteral("drop/lecture.json"));
    writeFile(path, QByteArray::fromStdString(writeScenario(s)));
    MainWindow w;
    QVERIFY(drop(w, {QUrl::fromLocalFile(path)}));
    QVERIFY(!message(w));
    QCOMPARE(w.accountingPage()->controls()->input().batch, 7.0);
    closeMessages(w);
}

void TestModelConfig::dragOfNoFileIsRefused() {
    MainWindow w;
    const Shown before = shown(w);
    QVERIFY(!drop(
        w, {QUrl(QStringLiteral("https://huggingface.co/deepseek-ai/DeepSeek-V3/raw/main/config.json"))}));
    QVERIFY(!drop(w, {}));
    QVERIFY(shown(w) == before);
    QVERIFY(!message(w));
}

// An opened config was copied as the published model nearest to it with flags on top ("--model-preset
// qwen3-8b --d-model 5120 …": right numbers, another model's name). Both pages now name it by its file,
// `--config PATH`, and napkin-cli runs that line to the page's numbers; a preset chosen after it is named
// as before.
void TestModelConfig::copyAsCommandNamesTheOpenedFile() {
    const ZooModel& zoo = *findZooModel("qwen3-8b");
    const QString path = writeFile(m_dir.filePath(QStringLiteral("copied/config.json")),
                                   QByteArray(zoo.configJson.data(), qsizetype(zoo.configJson.size())));
    MainWindow w;
    QCOMPARE(w.openModelConfig(path), QString());
    for (QWidget* page :
         {static_cast<QWidget*>(w.accountingPage()), static_cast<QWidget*>(w.inferencePage())}) {
        w.pages()->setCurrentWidget(page);
        const QString command = w.pageCommand();
        QVERIFY2(command.contains(QStringLiteral(" --config ") + path), qPrintable(command));
        QVERIFY2(!command.contains(QStringLiteral("--model-preset")), qPrintable(command));
        std::vector<std::string> args;
        for (const QString& word : command.split(QLatin1Char(' '), Qt::SkipEmptyParts).mid(1))
            args.push_back(word.toStdString());
        const test::CliOutcome cli = test::runCli(args);
        QVERIFY2(cli.status == 0,
                 qPrintable(command + QStringLiteral(" → ") + QString::fromStdString(cli.err)));
        const double parameters = nlohmann::json::parse(cli.out)["parameters"].get<double>();
        if (page == w.accountingPage())
            QCOMPARE(parameters, w.accountingPage()->lastResult()->parameters.total);
        else
            QCOMPARE(parameters, w.inferencePage()->lastResult()->parameters);
        // Issue 35: an exported chart's settings line named the nearest preset ("--model-preset qwen3-8b
        // --d-model 5120 …") while Copy as command named the file. Both say the same line now.
        const QList<ChartView*> charts = page->findChildren<ChartView*>();
        QVERIFY(!charts.isEmpty());
        for (const ChartView* chart : charts)
            QCOMPARE(chart->settingsCaption(), command);
    }
    w.accountingPage()->applyPreset(builtInPresets().front()); // a preset after the config: named as ever
    w.pages()->setCurrentWidget(w.accountingPage());
    QVERIFY2(!w.pageCommand().contains(QStringLiteral("--config")), qPrintable(w.pageCommand()));
    for (const ChartView* chart : w.accountingPage()->findChildren<ChartView*>())
        QVERIFY2(!chart->settingsCaption().contains(QStringLiteral("--config")),
                 qPrintable(chart->settingsCaption()));
}

QTEST_MAIN(TestModelConfig)
#include "tst_model_config.moc"
