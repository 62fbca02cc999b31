// SPDX-License-Identifier: GPL-3.0-or-later
// Dark palette and presentation mode: every chart repaints its background and axis text from the
// palette when it changes, and presentation mode thickens chart lines and gives them back.
#include "app/classroom/colour_scheme.h"
#include "app/classroom/presentation_mode.h"
#include "tests/support/wcag_contrast.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/throughput_chart.h"

#include <QApplication>
#include <QCheckBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QStyleOptionButton>
#include <QVBoxLayout>
#include <QtTest>

#include <algorithm>
#include <cmath>
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

    // Issue 35: in dark presentation an unticked box and an empty field had no visible edge (Fusion's
    // outline is the window colour darkened, ~1.3:1 on the field). WCAG 1.4.11 asks 3:1 of a control's edge.
    void uncheckedBoxesAndEmptyFieldsShowTheirEdgesInDark() {
        applyDarkPalette(true);
        const QPalette dark = darkPalette();
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* box = new QCheckBox(QStringLiteral("Recompute"));
        auto* field = new QLineEdit;
        auto* spin = new QSpinBox;
        layout->addWidget(box);
        layout->addWidget(field);
        layout->addWidget(spin);
        for (QWidget* w :
             {static_cast<QWidget*>(box), static_cast<QWidget*>(field), static_cast<QWidget*>(spin)})
            w->setFocusPolicy(Qt::NoFocus); // a focus ring would be an edge of its own
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCoreApplication::processEvents();

        QStyleOptionButton option;
        option.initFrom(box);
        const QRect indicator = box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box);
        QVERIFY(!indicator.isEmpty());
        const QImage boxPicture = box->grab().toImage();
        QVERIFY2(strongestEdge(boxPicture, indicator, dark.color(QPalette::Window)) >= 3.0,
                 "an unticked box has no visible edge");
        for (QWidget* input : {static_cast<QWidget*>(field), static_cast<QWidget*>(spin)}) {
            const QImage picture = input->grab().toImage();
            // The edge: the outermost two pixels all round, against the field inside it.
            const QRect all = picture.rect();
            double edge = 1;
            for (const QRect& side : {QRect(all.left(), all.top(), all.width(), 2),
                                      QRect(all.left(), all.bottom() - 1, all.width(), 2),
                                      QRect(all.left(), all.top(), 2, all.height())})
                edge = std::max(edge, strongestEdge(picture, side, dark.color(QPalette::Base)));
            QVERIFY2(edge >= 3.0,
                     qPrintable(input->metaObject()->className() + QStringLiteral(": no visible edge")));
        }
    }

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
