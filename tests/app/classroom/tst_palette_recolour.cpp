// Dark palette and presentation mode: every chart repaints its background and axis text from the
// palette when it changes, and presentation mode thickens chart lines and gives them back.
#include "app/classroom/colour_scheme.h"
#include "app/classroom/presentation_mode.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/throughput_chart.h"

#include <QApplication>
#include <QVBoxLayout>
#include <QtTest>

#include <memory>

namespace {

std::unique_ptr<ChartView> makeChart(const QString& kind) {
    if (kind == QLatin1String("memory"))
        return std::make_unique<MemoryChart>();
    if (kind == QLatin1String("flops"))
        return std::make_unique<FlopChart>();
    if (kind == QLatin1String("throughput"))
        return std::make_unique<ThroughputChart>();
    if (kind == QLatin1String("loss"))
        return std::make_unique<LossChart>();
    return std::make_unique<DynamicRangeChart>();
}

// The chart's background: a pixel in its top-left corner, inside the plot widget's margin.
QColor backgroundOf(QWidget& chart) {
    QCoreApplication::processEvents();
    return chart.grab().toImage().pixelColor(2, 2);
}

} // namespace

class TestPaletteRecolour : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { applyDarkPalette(false); }

    void chartsFollowApplicationPalette_data() {
        QTest::addColumn<QString>("kind");
        for (const char* kind : {"memory", "flops", "throughput", "loss", "range"})
            QTest::newRow(kind) << QString::fromLatin1(kind);
    }
    void chartsFollowApplicationPalette() {
        QFETCH(QString, kind);
        applyDarkPalette(false);
        const std::unique_ptr<ChartView> chart = makeChart(kind);
        chart->resize(400, 300);
        const QColor lightBackground = backgroundOf(*chart);
        const QColor lightText = chart->axisTextColor();
        applyDarkPalette(true);
        const QPalette dark = darkPalette();
        QTRY_COMPARE(backgroundOf(*chart), dark.color(QPalette::Base));
        QVERIFY(backgroundOf(*chart) != lightBackground);
        QCOMPARE(chart->axisTextColor(), dark.color(QPalette::WindowText));
        QCOMPARE(chart->axisPen().color(), dark.color(QPalette::WindowText));
        QVERIFY(chart->axisTextColor() != lightText);
        applyDarkPalette(false);
        QTRY_COMPARE(backgroundOf(*chart), lightBackground);
    }

    // A palette set on a parent (as presentation mode does on the window) reaches the charts too.
    void chartsFollowParentPalette() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* chart = new MemoryChart(&window);
        layout->addWidget(chart);
        window.resize(400, 300);
        window.setPalette(presentationPalette(darkPalette()));
        QCOMPARE(chart->axisTextColor(), QColor(Qt::white));
        QTRY_COMPARE(backgroundOf(*chart), QColor(Qt::black));
    }

    void presentationThickensLines() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* chart = new LossChart(&window);
        layout->addWidget(chart);
        window.resize(400, 300);
        chart->replotNow();
        const double axisWidth = chart->axisPen().widthF();
        const double lineWidth = chart->seriesPens().at(0).widthF();
        setChartLineScale(window, 2.5);
        chart->replotNow();
        QCOMPARE(chart->axisPen().widthF(), std::max(1.0, axisWidth) * 2.5);
        QCOMPARE(chart->seriesPens().at(0).widthF(), std::max(1.0, lineWidth) * 2.5);
        chart->replotNow(); // a second replot must not compound the scale
        QCOMPARE(chart->seriesPens().at(0).widthF(), std::max(1.0, lineWidth) * 2.5);
        setChartLineScale(window, 1.0);
        chart->replotNow();
        QCOMPARE(chart->axisPen().widthF(), axisWidth);
        QCOMPARE(chart->seriesPens().at(0).widthF(), lineWidth);
    }

    void presentationPaletteIsHighContrast() {
        const QPalette light = presentationPalette(QPalette(Qt::white));
        QCOMPARE(light.color(QPalette::WindowText), QColor(Qt::black));
        QCOMPARE(light.color(QPalette::Base), QColor(Qt::white));
        const QPalette dark = presentationPalette(darkPalette());
        QCOMPARE(dark.color(QPalette::Text), QColor(Qt::white));
        QCOMPARE(dark.color(QPalette::Window), QColor(Qt::black));
        QVERIFY(isDarkPalette(darkPalette()));
        QVERIFY(!isDarkPalette(light));
    }
};

QTEST_MAIN(TestPaletteRecolour)
#include "tst_palette_recolour.moc"
