// The Training tab: real sliders and spin boxes drive the lessons, computed off the GUI thread; the
// charts receive the engine's numbers; stale results are dropped; every panel exports a PNG.
#include "app/export/save_file.h"
#include "app/training/data_lesson_panel.h"
#include "app/training/determinism_panel.h"
#include "app/training/init_lesson_panel.h"
#include "app/training/mixed_precision_panel.h"
#include "app/training/training_page.h"
#include "widgets/charts/series_chart.h"

#include <QDir>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

class TestTrainingPage : public QObject {
    Q_OBJECT
private slots:
    void initSlidersDriveTheChart_data();
    void initSlidersDriveTheChart();
    void determinismEqualSeedsAreBitIdentical();
    void dataPanelDrawsTheFilesWindows();
    void dataPanelReportsAMissingFile();
    void mixedPrecisionShowsFiveRecipes();
    void panelsExportPng();
};

void TestTrainingPage::initSlidersDriveTheChart_data() {
    QTest::addColumn<int>("dimExponent");
    QTest::addColumn<int>("layers");
    QTest::newRow("D=256, L=6") << 8 << 6;
    QTest::newRow("D=1024, L=3") << 10 << 3;
}

void TestTrainingPage::initSlidersDriveTheChart() {
    QFETCH(int, dimExponent);
    QFETCH(int, layers);
    InitLessonPanel panel;
    QSignalSpy updated(&panel, &InitLessonPanel::updated);
    panel.layersSlider()->setValue(layers);
    panel.dimSlider()->setValue(dimExponent); // two changes: the first run is superseded
    QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 1 && panel.chart()->series().size() == 3 &&
                                 panel.chart()->series()[0].y.size() == static_cast<std::size_t>(layers + 1),
                             10000);
    const auto& normal = panel.chart()->series()[0].y;
    const double sqrtD = std::sqrt(static_cast<double>(1 << dimExponent));
    const double perLayer = std::pow(normal.back() / normal.front(), 1.0 / layers);
    QVERIFY2(std::abs(perLayer / sqrtD - 1) < 0.1, qPrintable(QString::number(perLayer)));
    for (double s : panel.chart()->series()[1].y)
        QVERIFY(s > 0.5 && s < 2);
}

void TestTrainingPage::determinismEqualSeedsAreBitIdentical() {
    DeterminismPanel panel;
    QSignalSpy updated(&panel, &DeterminismPanel::updated);
    panel.seed(1, 1)->setValue(panel.seed(0, 1)->value()); // b's data seed = a's
    QTRY_VERIFY_WITH_TIMEOUT(
        updated.count() >= 1 && panel.verdict()->text().contains(QStringLiteral("bit-identical")), 10000);
    QCOMPARE(panel.chartA()->series()[0].y, panel.chartB()->series()[0].y);
    panel.seed(1, 1)->setValue(panel.seed(0, 1)->value() + 7);
    QTRY_VERIFY_WITH_TIMEOUT(panel.verdict()->text().contains(QStringLiteral("first differ")), 10000);
    QVERIFY(panel.verdict()->text().contains(QStringLiteral("Initial weights: identical")));
    QVERIFY(panel.verdict()->text().contains(QStringLiteral("another order")));
}

void TestTrainingPage::dataPanelDrawsTheFilesWindows() {
    QTemporaryDir dir(QDir::current().filePath(QStringLiteral("training-page-XXXXXX")));
    DataLessonPanel panel;
    panel.pathEdit()->setText(dir.filePath(QStringLiteral("tokens.bin")));
    QSignalSpy updated(&panel, &DataLessonPanel::updated);
    panel.generate(2); // 2 MB of uint16 tokens
    QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 1, 20000);
    QCOMPARE(panel.batchTable()->rowCount(), 8);
    QCOMPARE(panel.batchTable()->columnCount(), 17); // offset + 16 tokens
    QVERIFY(panel.facts()->text().contains(QStringLiteral("2 MB")));
    QVERIFY(panel.facts()->text().contains(QStringLiteral("1000000 tokens")));
}

void TestTrainingPage::dataPanelReportsAMissingFile() {
    DataLessonPanel panel;
    panel.pathEdit()->setText(QStringLiteral("/nonexistent/napkin-tokens.bin"));
    panel.draw();
    QTRY_VERIFY_WITH_TIMEOUT(panel.facts()->text().contains(QStringLiteral("cannot open")), 10000);
}

void TestTrainingPage::mixedPrecisionShowsFiveRecipes() {
    MixedPrecisionPanel panel; // trains on construction
    QSignalSpy updated(&panel, &MixedPrecisionPanel::updated);
    QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 1, 20000);
    QCOMPARE(panel.chart()->series().size(), std::size_t{5});
    QCOMPARE(panel.table()->rowCount(), 5);
    QCOMPARE(panel.table()->item(3, 0)->text(), QStringLiteral("fp16, no loss scaling"));
    QVERIFY(!panel.table()->item(3, 2)->text().startsWith(QLatin1Char('0')));    // fp16 lost gradient values
    QVERIFY(panel.table()->item(0, 2)->text().startsWith(QStringLiteral("0 "))); // fp32 lost none
}

void TestTrainingPage::panelsExportPng() {
    TrainingPage page;
    page.resize(1000, 700);
    QTemporaryDir dir;
    QTRY_VERIFY_WITH_TIMEOUT(!page.initPanel()->chart()->series().empty(), 10000);
    const QString chartPath = dir.filePath(QStringLiteral("init.png"));
    QCOMPARE(saveChart(*page.initPanel()->chart(), chartPath, QSize(800, 500)), QString());
    QCOMPARE(QImage(chartPath).size(), QSize(800, 500));
    const QString panelPath = dir.filePath(QStringLiteral("mixed.png"));
    QCOMPARE(savePage(*page.mixedPrecisionPanel(), panelPath, QSize(900, 600), 1.0), QString());
    QCOMPARE(QImage(panelPath).size(), QSize(900, 600));
}

QTEST_MAIN(TestTrainingPage)
#include "tst_training_page.moc"
