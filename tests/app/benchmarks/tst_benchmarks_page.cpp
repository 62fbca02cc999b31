// The Benchmarks page driven through its real controls on the real CPU backend: a tiny sweep lands in
// the chart exactly as the runner measured it, a cancel stops the worker and nothing stale lands, a tiny
// training run shows its loss curve and the ledger's bytes equal the formula's.
// With NAPKIN_SCREENSHOT_DIR set, it also writes the page as a PNG there (for eyes, not asserts).
#include "app/benchmarks/benchmarks_page.h"
#include "app/export/chart_export.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/compute/cpu/cpu_backend.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/throughput_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

// The real CPU backend (no FMA-peak run) that refuses fp64, so one case of a sweep fails.
class NoFp64Backend final : public napkin::BenchmarkBackend {
public:
    NoFp64Backend()
        : m_cpu(napkin::CpuBackendOptions{false, 0.1, 1}) {}
    napkin::DeviceInfo deviceInfo() const override { return m_cpu.deviceInfo(); }
    std::string unsupportedReason(napkin::BenchDtype dtype) const override {
        return dtype == napkin::BenchDtype::fp64 ? "fp64: not on this test backend"
                                                 : m_cpu.unsupportedReason(dtype);
    }
    std::unique_ptr<napkin::MatmulProblem> prepareMatmul(const napkin::MatmulCase& shape,
                                                         std::uint64_t seed) override {
        return m_cpu.prepareMatmul(shape, seed);
    }
    std::unique_ptr<napkin::CruncherTrainer>
    makeCruncherTrainer(const napkin::CruncherConfig& config) override {
        return m_cpu.makeCruncherTrainer(config);
    }

private:
    napkin::CpuBackend m_cpu;
};

class TestBenchmarksPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cudaIsListedButDisabled();
    void tinySweepLandsInTheChart();
    void badSizesAreRejected();
    void failedCaseShowsItsMessage();
    void chosenDeviceIsTheBackendThatRuns();
    void cancelStopsAndDropsTheStaleResult();
    void supersededRunIsDropped();
    void tinyTrainingMatchesTheFormula();
    void exportsWriteTheNumbers();
    void screenshot();
    void cleanupTestCase();

private:
    QPushButton* button(const QString& text) const {
        for (auto* b : m_page->findChildren<QPushButton*>())
            if (b->text() == text)
                return b;
        return nullptr;
    }
    QCheckBox* check(const QString& text) const {
        for (auto* c : m_page->findChildren<QCheckBox*>())
            if (c->text() == text)
                return c;
        return nullptr;
    }
    void selectOnly(const QStringList& dtypes) {
        for (const QString& d :
             {QStringLiteral("fp32"), QStringLiteral("fp64"), QStringLiteral("bf16"), QStringLiteral("fp16")})
            check(d)->setChecked(dtypes.contains(d));
    }
    std::unique_ptr<BenchmarksPage> m_page; // one page: the FMA peak is measured once
};

void TestBenchmarksPage::initTestCase() {
    m_page = std::make_unique<BenchmarksPage>();
}

void TestBenchmarksPage::cleanupTestCase() {
    m_page.reset();
}

void TestBenchmarksPage::cudaIsListedButDisabled() {
    auto* device = m_page->findChild<QComboBox*>(QStringLiteral("device"));
    QVERIFY(device);
    const int cuda = device->findText(QStringLiteral("cuda"));
    QVERIFY(cuda >= 0);
    QCOMPARE(device->itemData(cuda, Qt::UserRole - 1).toInt(), 0); // not enabled
    QVERIFY(device->itemData(cuda, Qt::ToolTipRole).toString().contains(QStringLiteral("CUDA")));
    QCOMPARE(device->currentText(), QStringLiteral("cpu"));
    // the defaults the issue asks for
    QVERIFY(check(QStringLiteral("fp32"))->isChecked());
    QVERIFY(check(QStringLiteral("fp64"))->isChecked());
    QVERIFY(!check(QStringLiteral("fp16"))->isChecked());
    QCOMPARE(m_page->findChild<QLineEdit*>(QStringLiteral("sizes"))->text(),
             QStringLiteral("128,256,512,1024"));
}

void TestBenchmarksPage::tinySweepLandsInTheChart() {
    selectOnly({QStringLiteral("fp32")});
    m_page->findChild<QLineEdit*>(QStringLiteral("sizes"))->setText(QStringLiteral("16,32"));
    QSignalSpy finished(m_page->service(), &BenchmarkService::sweepFinished);
    QTest::mouseClick(button(QStringLiteral("Run")), Qt::LeftButton);
    QVERIFY(m_page->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!m_page->isRunning(), 20000);
    QCOMPARE(finished.count(), 1);
    QVERIFY(m_page->sweep());
    const auto& results = m_page->sweep()->results;
    QCOMPARE(results.size(), std::size_t{2});
    const ThroughputChartData& chart = m_page->throughputChart()->data();
    QCOMPARE(chart.series.size(), std::size_t{1});
    QCOMPARE(chart.series[0].dtype, QStringLiteral("fp32"));
    QCOMPARE(chart.series[0].points.size(), std::size_t{2});
    const double n[] = {16, 32};
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& r = results[i];
        const auto& p = chart.series[0].points[i];
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.shape.n, static_cast<long>(n[i]));
        QCOMPARE(p.size, n[i]);
        QCOMPARE(p.flops, 2 * n[i] * n[i] * n[i]); // 8192, 65536
        QCOMPARE(p.flops, r.flops);
        QVERIFY(p.flopsPerSecond > 0);
        QCOMPARE(p.flopsPerSecond, r.flopsPerSecond);
        QCOMPARE(p.flopsPerSecond, r.flops / r.timing.medianSeconds);
        QCOMPARE(p.mfu.has_value(), r.mfu.has_value());
        const QString tip = m_page->throughputChart()->tooltipFor(chart.series[0], p);
        QVERIFY2(tip.contains(QStringLiteral("MFU")), qPrintable(tip));
    }
    QVERIFY(chart.series[0].promisedFlopsPerSecond.has_value());
    QCOMPARE(*chart.series[0].promisedFlopsPerSecond,
             m_page->sweep()->device.promisedFlopsPerSecond.at("fp32"));
    QCOMPARE(m_page->findChild<QTableWidget*>(QStringLiteral("results"))->rowCount(), 2);
}

void TestBenchmarksPage::badSizesAreRejected() {
    m_page->findChild<QLineEdit*>(QStringLiteral("sizes"))->setText(QStringLiteral("16,abc"));
    QString error;
    QVERIFY(m_page->sizes(&error).empty());
    QVERIFY(error.contains(QStringLiteral("'abc'")));
    QTest::mouseClick(button(QStringLiteral("Run")), Qt::LeftButton);
    QVERIFY(!m_page->isRunning());
    QVERIFY(!m_page->service()->isBusy());
}

void TestBenchmarksPage::failedCaseShowsItsMessage() {
    BenchmarksPage page;
    page.service()->setBackendFactory([] { return std::make_unique<NoFp64Backend>(); });
    page.findChild<QLineEdit*>(QStringLiteral("sizes"))->setText(QStringLiteral("16"));
    for (auto* c : page.findChildren<QCheckBox*>())
        c->setChecked(c->text() == QStringLiteral("fp32") || c->text() == QStringLiteral("fp64"));
    for (auto* b : page.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Run"))
            QTest::mouseClick(b, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 20000);
    QVERIFY(page.sweep());
    QCOMPARE(page.sweep()->results.size(), std::size_t{2});
    QVERIFY(page.sweep()->results[0].ok);
    QVERIFY(!page.sweep()->results[1].ok);
    // the chart has the fp32 point only; the table shows the fp64 case with its message
    const auto& series = page.throughputChart()->data().series;
    QCOMPARE(series.size(), std::size_t{2});
    QCOMPARE(series[0].points.size(), std::size_t{1});
    QVERIFY(series[1].points.empty());
    auto* table = page.findChild<QTableWidget*>(QStringLiteral("results"));
    QCOMPARE(table->rowCount(), 2);
    const QString status = table->item(1, table->columnCount() - 1)->text();
    QVERIFY2(status.contains(QStringLiteral("fp64: not on this test backend")), qPrintable(status));
}

// The device box decides which registry backend the worker makes: CUDA without a device (or without
// the backend in this build) fails the run with the registry's reason; back on the CPU it runs again.
void TestBenchmarksPage::chosenDeviceIsTheBackendThatRuns() {
    std::string whyNot;
    if (napkin::makeBackend("cuda", &whyNot))
        QSKIP("a CUDA device is present; this checks the no-device path");
    BenchmarksPage page;
    auto* device = page.findChild<QComboBox*>(QStringLiteral("device"));
    page.findChild<QLineEdit*>(QStringLiteral("sizes"))->setText(QStringLiteral("16"));
    for (auto* c : page.findChildren<QCheckBox*>())
        c->setChecked(c->text() == QStringLiteral("fp32"));
    QPushButton* run = nullptr;
    for (auto* b : page.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Run"))
            run = b;
    QVERIFY(run);
    QSignalSpy failed(page.service(), &BenchmarkService::failed);
    QSignalSpy finished(page.service(), &BenchmarkService::sweepFinished);

    device->setCurrentIndex(device->findText(QStringLiteral("cuda"))); // disabled for a user, not for code
    QTest::mouseClick(run, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 20000);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), QString::fromStdString(whyNot));
    QCOMPARE(finished.count(), 0);

    device->setCurrentIndex(device->findText(QStringLiteral("cpu")));
    QTest::mouseClick(run, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 20000);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(failed.count(), 1);
    QVERIFY(page.sweep() && page.sweep()->results.size() == 1 && page.sweep()->results[0].ok);
}

void TestBenchmarksPage::cancelStopsAndDropsTheStaleResult() {
    selectOnly({QStringLiteral("fp32"), QStringLiteral("fp64")});
    m_page->findChild<QLineEdit*>(QStringLiteral("sizes"))->setText(QStringLiteral("512,1024,1024,1024"));
    QSignalSpy finished(m_page->service(), &BenchmarkService::sweepFinished);
    QSignalSpy progress(m_page->service(), &BenchmarkService::progress);
    QTest::mouseClick(button(QStringLiteral("Run")), Qt::LeftButton);
    // Wait until the runner itself reports (GEMMs are running), then cancel.
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 2, 20000);
    QVERIFY(m_page->service()->isBusy());
    QTest::mouseClick(button(QStringLiteral("Cancel")), Qt::LeftButton);
    QVERIFY(!m_page->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!m_page->service()->isBusy(), 2000);
    QTest::qWait(200); // let anything the worker posted be delivered (and dropped)
    QCOMPARE(finished.count(), 0);
    QVERIFY(!m_page->sweep());
    QVERIFY(m_page->throughputChart()->data().series.empty());
}

// A second start supersedes the first: only the second run's result is delivered.
void TestBenchmarksPage::supersededRunIsDropped() {
    BenchmarkService* service = m_page->service();
    QSignalSpy finished(service, &BenchmarkService::sweepFinished);
    service->startSweep(
        {{1024, 1024, 1024, napkin::BenchDtype::fp64}, {1024, 1024, 1024, napkin::BenchDtype::fp64}});
    service->startSweep({{24, 24, 24, napkin::BenchDtype::fp32}});
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1 && !service->isBusy(), 20000);
    QTest::qWait(100);
    QCOMPARE(finished.count(), 1);
    const auto sweep = finished.at(0).at(0).value<napkin::MatmulSweep>();
    QCOMPARE(sweep.results.size(), std::size_t{1});
    QCOMPARE(sweep.results[0].shape.n, 24L);
}

void TestBenchmarksPage::tinyTrainingMatchesTheFormula() {
    auto spin = [this](const char* name) { return m_page->findChild<QSpinBox*>(QString::fromLatin1(name)); };
    spin("dim")->setValue(8);
    spin("layers")->setValue(2);
    spin("batch")->setValue(4);
    spin("steps")->setValue(5);
    QTest::mouseClick(button(QStringLiteral("Train")), Qt::LeftButton);
    QVERIFY(m_page->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!m_page->isRunning(), 20000);
    QVERIFY(m_page->training());
    const TrainingReport& t = *m_page->training();
    QCOMPARE(m_page->lossChart()->losses().size(), std::size_t{5});
    QCOMPARE(m_page->lossChart()->losses(), t.losses);
    QCOMPARE(t.memory.size(), std::size_t{4});
    for (const auto& m : t.memory)
        QVERIFY2(m.predictedBytes == m.measuredBytes, qPrintable(m.component));
    // AdaGrad, P = L·D² + D = 136: parameters 4·P bytes, activations 4·B·D·L = 256 bytes
    QCOMPARE(t.memory[0].measuredBytes, 4.0 * 136);
    QCOMPARE(t.memory[3].measuredBytes, 4.0 * 4 * 8 * 2);
    QCOMPARE(t.measuredTotalBytes, t.predictedTotalBytes);
    QCOMPARE(t.flopsPerStep, 6.0 * 4 * 136 - 2.0 * 4 * 8 * 8);
    QVERIFY(t.flopsPerSecond > 0);
}

void TestBenchmarksPage::exportsWriteTheNumbers() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QCOMPARE(m_page->exportJson(dir.filePath(QStringLiteral("b.json"))), QString());
    QFile json(dir.filePath(QStringLiteral("b.json")));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(doc[QStringLiteral("training")].toObject()[QStringLiteral("loss")].toArray().size(), 5);
    QCOMPARE(m_page->exportCsv(dir.filePath(QStringLiteral("b.csv"))), QString());
    QFile csv(dir.filePath(QStringLiteral("b.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QVERIFY(csv.readAll().contains("memory,total,"));
    QCOMPARE(m_page->exportChartPng(dir.filePath(QStringLiteral("t.png"))), QString());
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("t.png"))));
    QVERIFY(!m_page->exportCsv(dir.filePath(QStringLiteral("missing/b.csv"))).isEmpty());
}

void TestBenchmarksPage::screenshot() {
    const QByteArray dir = qgetenv("NAPKIN_SCREENSHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set NAPKIN_SCREENSHOT_DIR to write the page as a PNG");
    QCOMPARE(exportWidgetPng(*m_page,
                             QString::fromLocal8Bit(dir) + QStringLiteral("/benchmarks-page-before.png"),
                             QSize(1400, 900)),
             QString());
    selectOnly({QStringLiteral("fp32"), QStringLiteral("fp64"), QStringLiteral("fp16")});
    m_page->findChild<QLineEdit*>(QStringLiteral("sizes"))->setText(QStringLiteral("16,32,64,128,256"));
    QSignalSpy progress(m_page->service(), &BenchmarkService::progress);
    QTest::mouseClick(button(QStringLiteral("Run")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 3 || !m_page->isRunning(), 30000);
    QCOMPARE(exportWidgetPng(*m_page,
                             QString::fromLocal8Bit(dir) + QStringLiteral("/benchmarks-page-running.png"),
                             QSize(1400, 900)),
             QString());
    QTRY_VERIFY_WITH_TIMEOUT(!m_page->isRunning(), 30000);
    QCOMPARE(exportWidgetPng(*m_page, QString::fromLocal8Bit(dir) + QStringLiteral("/benchmarks-page.png"),
                             QSize(1400, 900)),
             QString());
}

QTEST_MAIN(TestBenchmarksPage)
#include "tst_benchmarks_page.moc"
