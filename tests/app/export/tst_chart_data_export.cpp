// SPDX-License-Identifier: GPL-3.0-or-later
// The numbers behind the charts as CSV and JSON: the lecture's Cruncher (D=4, 2 layers, batch 2,
// AdaGrad, fp32) must come out as its hand-computed bytes and FLOPs, in base units, with formulas.
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/benchmarks/matmul_sweep_panel.h"
#include "app/benchmarks/training_run_panel.h"
#include "app/export/chart_data_export.h"
#include "app/export/save_file.h"
#include "app/formats/number_formats_page.h"
#include "app/shell/main_window.h"
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/charts/throughput_chart.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TestChartDataExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); } // the window reads QSettings
    void memoryCruncher();
    void flopsCruncher();
    void formatRanges();
    void copyChartToClipboard();
    void otherChartsAsFiles_data();
    void otherChartsAsFiles();
};

void TestChartDataExport::otherChartsAsFiles_data() {
    QTest::addColumn<int>("chart");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QByteArray>("magic");
    for (int chart = 0; chart < 4; ++chart) {
        QTest::addRow("chart %d png", chart) << chart << "png" << QByteArray("\x89PNG", 4);
        QTest::addRow("chart %d svg", chart) << chart << "svg" << QByteArray("<?xml");
        QTest::addRow("chart %d pdf", chart) << chart << "pdf" << QByteArray("%PDF-");
    }
}

// File > Export other chart: the number-format ranges, throughput, loss and training-timeline charts in
// every format.
void TestChartDataExport::otherChartsAsFiles() {
    QFETCH(int, chart);
    QFETCH(QString, suffix);
    QFETCH(QByteArray, magic);
    NumberFormatsPage formats;
    BenchmarksPage benchmarks;
    const ChartView* view = chart == 0   ? static_cast<const ChartView*>(formats.rangeChart())
                            : chart == 1 ? static_cast<const ChartView*>(benchmarks.sweepPanel()->chart())
                            : chart == 2 ? static_cast<const ChartView*>(benchmarks.trainingPanel()->chart())
                                         : benchmarks.trainingPanel()->timelineChart();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.") + suffix);
    QCOMPARE(saveChart(*view, path, QSize(640, 360), 2.0), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY2(bytes.startsWith(magic), bytes.left(16).constData());
    QVERIFY(bytes.size() > 1000);
    QVERIFY(!saveChart(*view, dir.filePath(QStringLiteral("chart.gif")), QSize(640, 360)).isEmpty());
}

// File > Copy memory chart: a 2× picture (3200 × 1800 device pixels) for pasting into slides.
void TestChartDataExport::copyChartToClipboard() {
    MainWindow w;
    QGuiApplication::clipboard()->clear();
    QAction* copy = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == QStringLiteral("&Copy memory chart"))
            copy = a;
    if (!copy)
        QFAIL("File menu has no Copy memory chart");
    copy->trigger();
    const QPixmap pixmap = QGuiApplication::clipboard()->pixmap();
    QCOMPARE(pixmap.size(), QSize(3200, 1800));
}

void TestChartDataExport::memoryCruncher() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    const QString csv = QString::fromUtf8(memoryChartCsv(page.memoryChart()->data()));
    QVERIFY2(csv.startsWith(QStringLiteral("series,name,value,unit,formula\n")), qPrintable(csv));
    QVERIFY2(csv.contains(QStringLiteral("memory,parameters,144,bytes,")),
             qPrintable(csv));                                                          // 36 params × 4 B
    QVERIFY2(csv.contains(QStringLiteral("memory,total,496,bytes,")), qPrintable(csv)); // 4 · 124
    const QJsonObject json = QJsonDocument::fromJson(memoryChartJson(page.memoryChart()->data())).object();
    QCOMPARE(json[QStringLiteral("total")].toDouble(), 496.0);
    QCOMPARE(json[QStringLiteral("segments")].toArray().size(), 5);
    QCOMPARE(json[QStringLiteral("segments")].toArray()[0].toObject()[QStringLiteral("value")].toDouble(),
             144.0);
    QVERIFY(!json[QStringLiteral("segments")]
                 .toArray()[0]
                 .toObject()[QStringLiteral("formula")]
                 .toString()
                 .isEmpty());
    // The usable basis (issue 38, the default): what the driver reports for an H100 SXM, 81,559 MiB
    // (the catalog's driver_memory_bytes, modal-labs/modal-client PR #2797), not the datasheet's 80e9.
    QCOMPARE(json[QStringLiteral("capacity")].toDouble(), 81559.0 * 1024 * 1024);
}

void TestChartDataExport::flopsCruncher() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    const QJsonObject json = QJsonDocument::fromJson(flopChartJson(page.flopChart()->data())).object();
    const QJsonArray phases = json[QStringLiteral("phases")].toArray();
    QVERIFY(phases.size() >= 2);
    QCOMPARE(phases[0].toObject()[QStringLiteral("value")].toDouble(), 144.0); // 2 · 2 · 36
    QCOMPARE(phases[1].toObject()[QStringLiteral("value")].toDouble(), 288.0); // 4 · 2 · 36
    const QString csv = QString::fromUtf8(flopChartCsv(page.flopChart()->data()));
    QVERIFY2(csv.contains(QStringLiteral("phase,forward,144,FLOPs,")), qPrintable(csv));
}

void TestChartDataExport::formatRanges() {
    NumberFormatsPage page;
    const QString csv = QString::fromUtf8(rangeChartCsv(page.rangeChart()->bars()));
    QVERIFY2(csv.contains(QStringLiteral(",448\n")), qPrintable(csv));   // fp8 E4M3 largest finite
    QVERIFY2(csv.contains(QStringLiteral(",57344\n")), qPrintable(csv)); // fp8 E5M2
    QVERIFY2(csv.contains(QStringLiteral(",65504\n")), qPrintable(csv)); // fp16
    const QJsonArray formats = QJsonDocument::fromJson(rangeChartJson(page.rangeChart()->bars()))
                                   .object()[QStringLiteral("formats")]
                                   .toArray();
    QCOMPARE(formats.size(), 5);
}

QTEST_MAIN(TestChartDataExport)
#include "tst_chart_data_export.moc"
