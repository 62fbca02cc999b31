// SPDX-License-Identifier: GPL-3.0-or-later
// The charts at a projector's size: the FLOP chart's legend no longer covers the backward bar, an axis
// title too long for a small chart breaks onto more lines instead of being cut, the Cruncher's verdict and
// its off-scale capacity note (now under the axis) keep apart, and an exported chart carries its title and
// settings line; tick labels never overlap (named categories turn further when they would), a legend drops
// columns rather than cut its names, a corner note breaks into lines rather than run past the axes, and
// larger type asks for a taller chart.
#include "widgets/charts/alert_colors.h"
#include "widgets/charts/decode_throughput_chart.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/image_format.h"
#include "widgets/charts/inference_memory_chart.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/charts/throughput_chart.h"
#include "widgets/text/measured_text.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QImage>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtTest>

#include <memory>

namespace {

bool legendCoversData(const ChartLayout& g) {
    for (const QRect& d : g.data)
        if (!g.legend.isEmpty() && g.legend.intersects(d))
            return true;
    return false;
}

} // namespace

class TestChartLayout : public QObject {
    Q_OBJECT
private slots:
    void flopLegendLeavesTheBarsAlone();
    void longAxisTitleWrapsInsteadOfBeingCut();
    void offScaleCapacityNoteClearsTheVerdict();
    void exportCarriesTitleAndSettings();
    void tickLabelsThinOutInsteadOfOverlapping();
    void largerTypeNeedsATallerChart();
    void manyCategoriesTurnTheirLabels();
    void legendAndNoteKeepToANarrowChart();
    void aChartIsNoNarrowerThanItsLegend();
    void measuredTextIsQFontMetricsOnce_data();
    void measuredTextIsQFontMetricsOnce();
    void theWheelOverAChartScrollsThePage();
    void theCapacityLabelKeepsOffABarThatDoesNotFit();
    void aChartThatGrowsLabelsItsWholeAxis_data();
    void aChartThatGrowsLabelsItsWholeAxis();
    void capacityLabelsStandOffTheAxis_data();
    void capacityLabelsStandOffTheAxis();
};

void TestChartLayout::flopLegendLeavesTheBarsAlone() {
    FlopChart chart;
    chart.resize(330, 260); // the accounting page's chart at 1024×768
    chart.show();
    FlopChartData d;
    d.phases = {{QStringLiteral("forward"), 2e18, {}},
                {QStringLiteral("backward"), 4e18, {}},
                {QStringLiteral("recompute"), 0, {}}};
    d.components = {{QStringLiteral("attention"), 0.6e18, {}},
                    {QStringLiteral("MLP"), 1.2e18, {}},
                    {QStringLiteral("head"), 0.2e18, {}}};
    chart.setData(d);
    chart.replotNow();
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY(!g.legend.isEmpty());
    QVERIFY(!g.data.empty());
    QVERIFY(!legendCoversData(g));
    QVERIFY2(g.cutText.isEmpty(), qPrintable(g.cutText.join(QLatin1Char('|'))));
}

void TestChartLayout::longAxisTitleWrapsInsteadOfBeingCut() {
    LossChart chart;
    chart.resize(260, 180);
    chart.show();
    chart.setLosses({1.0, 0.5, 0.25, 0.2});
    chart.replotNow();
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY2(g.cutText.isEmpty(), qPrintable(g.cutText.join(QLatin1Char('|'))));
}

void TestChartLayout::offScaleCapacityNoteClearsTheVerdict() {
    MemoryChart chart;
    QFont big = chart.font();
    big.setPointSizeF(big.pointSizeF() * 1.45); // presentation mode's type
    chart.setFont(big);
    chart.setLineScale(2.5);
    chart.resize(440, 320); // the accounting page's memory chart in presentation mode at 1600×900
    chart.show();
    MemoryChartData d = chart.data();
    d.segments[0].bytes = 96;
    d.segments[1].bytes = 96;
    d.segments[2].bytes = 192;
    d.segments[3].bytes = 112;
    d.capacityBytes = 80e9;
    d.peakBytes = 560;
    d.peakEvent = QStringLiteral("backward layer 1");
    d.fits = true;
    chart.setData(d);
    chart.replotNow();
    QCoreApplication::processEvents(); // the replot that lays out refitted titles
    chart.replotNow();
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY2(g.cutText.isEmpty(), qPrintable(g.cutText.join(QLatin1Char('|'))));
    for (std::size_t i = 0; i < g.labels.size(); ++i)
        for (std::size_t j = i + 1; j < g.labels.size(); ++j)
            QVERIFY(!g.labels[i].intersects(g.labels[j]));
    // The note is still there, under the axis.
    QVERIFY(chart.renderAs(ImageFormat::svg, QSize(300, 300), 1.0, false).contains("off the scale"));
}

void TestChartLayout::exportCarriesTitleAndSettings() {
    LossChart chart;
    chart.setLosses({1.0, 0.5});
    chart.setSettingsCaption(QStringLiteral("napkin-cli bench train --steps 2"));
    const QByteArray svg = chart.renderAs(ImageFormat::svg, QSize(800, 450));
    QVERIFY(svg.contains("Training loss"));
    QVERIFY(svg.contains("napkin-cli bench train --steps 2"));
    const QByteArray bare = chart.renderAs(ImageFormat::svg, QSize(800, 450), 1.0, false);
    QVERIFY(!bare.contains("Training loss"));
    QVERIFY(!bare.contains("napkin-cli bench train"));
    const QImage png = QImage::fromData(chart.renderAs(ImageFormat::png, QSize(800, 450), 2.0), "PNG");
    QCOMPARE(png.size(), QSize(1600, 900));
}

// A chart at its smallest (the timeline in presentation mode at 1024×768 drew eight byte ticks
// 0 … 1.75 GB into one another): the axis keeps as many ticks as fit.
void TestChartLayout::tickLabelsThinOutInsteadOfOverlapping() {
    MemoryChart chart;
    chart.resize(240, 200);
    chart.show();
    MemoryChartData d = chart.data();
    d.segments[0].bytes = 0.14e9;
    d.segments[1].bytes = 0.14e9;
    d.segments[2].bytes = 0.27e9;
    d.segments[3].bytes = 0.55e9;
    d.capacityBytes = 80e9;
    d.peakBytes = 1.1e9;
    d.fits = true;
    chart.setData(d);
    chart.replotNow();
    QCoreApplication::processEvents(); // the replot that lays out refitted titles and ticks
    chart.replotNow();
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY2(g.crowdedTicks.isEmpty(), qPrintable(g.crowdedTicks.join(QLatin1Char('|'))));
    QVERIFY2(chart.tickLabels().size() >= 2, qPrintable(chart.tickLabels().join(QLatin1Char('|'))));
}

// The minimum height follows the font, so that a page scrolls rather than squash a chart in
// presentation mode; the width grows less (a projector's 1024 pixels hold a control panel too).
void TestChartLayout::largerTypeNeedsATallerChart() {
    FlopChart chart;
    const QSize normal = chart.minimumSizeHint();
    QFont big = chart.font();
    big.setPointSizeF(big.pointSizeF() * 1.45);
    chart.setFont(big);
    const QSize large = chart.minimumSizeHint();
    QVERIFY2(large.height() >= normal.height() * 1.4,
             qPrintable(QStringLiteral("%1 → %2").arg(normal.height()).arg(large.height())));
    QVERIFY2(large.width() < normal.width() * 1.45,
             qPrintable(QStringLiteral("%1 → %2").arg(normal.width()).arg(large.width())));
}

// DeepSeek-V3's FLOP chart on the accounting page at 1024×768: nine categories at 30° overlapped.
void TestChartLayout::manyCategoriesTurnTheirLabels() {
    FlopChart chart;
    chart.resize(330, 300);
    chart.show();
    FlopChartData d;
    d.phases = {{QStringLiteral("forward"), 2e18, {}},
                {QStringLiteral("backward"), 4e18, {}},
                {QStringLiteral("recompute"), 2e18, {}}};
    for (const char* name : {"attention", "experts", "shared expert", "router", "dense-layer mlp", "head"})
        d.components.push_back({QString::fromLatin1(name), 0.3e18, {}});
    chart.setData(d);
    chart.replotNow();
    chart.replotNow();
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY2(g.crowdedTicks.isEmpty(), qPrintable(g.crowdedTicks.join(QLatin1Char('|'))));
    QVERIFY2(g.cutText.isEmpty(), qPrintable(g.cutText.join(QLatin1Char('|'))));
}

// The decode chart in presentation mode at 1280×720: its legend's two columns cut "memory bound, does not
// fit", and its three-line note ran past the axes.
void TestChartLayout::legendAndNoteKeepToANarrowChart() {
    DecodeThroughputChart chart;
    QFont large = chart.font();
    large.setPointSizeF(large.pointSizeF() * 1.5);
    chart.setFont(large);
    chart.resize(420, 360);
    chart.show();
    DecodeThroughputChartData d;
    for (double b = 1; b <= 256; b *= 2)
        d.points.push_back({b, 200 * b, false, b <= 40});
    d.current = {1, 200, false, true};
    d.maxBatch = 40;
    d.lastBatch = 256;
    chart.setData(d);
    // As on screen: the replots the chart queues for itself (the axes leaving room for "256") run too.
    for (int pass = 0; pass < 3; ++pass) {
        chart.replotNow();
        QCoreApplication::processEvents();
    }
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY(!g.legend.isEmpty());
    QVERIFY2(g.cutText.isEmpty(), qPrintable(g.cutText.join(QLatin1Char('|'))));
    // Issue 35: the "largest batch that fits" line was drawn over the note, through its words. The note
    // is the label in the axes' top-left corner; no pixel inside it has the line's red.
    QVERIFY(!g.labels.empty());
    QRect note = g.labels.front();
    for (const QRect& label : g.labels)
        if (label.top() + label.left() < note.top() + note.left())
            note = label;
    const QImage picture = chart.grab().toImage();
    const QColor red = alertColor(chart.palette());
    for (int y = note.top() + 2; y < note.bottom() - 1; ++y)
        for (int x = note.left() + 2; x < note.right() - 1; ++x) {
            const QColor c = picture.pixelColor(x, y);
            QVERIFY2(std::abs(c.red() - red.red()) + std::abs(c.green() - red.green()) +
                             std::abs(c.blue() - red.blue()) >
                         60,
                     qPrintable(QStringLiteral("the fit line runs through the note at %1,%2").arg(x).arg(y)));
        }
}

// A splitter dragged far (or the control panel widened by presentation mode's type) squeezed the FLOP chart
// until "step: forward, backward, recompute" was cut: the chart's minimum width keeps its legend whole.
void TestChartLayout::aChartIsNoNarrowerThanItsLegend() {
    FlopChart chart;
    FlopChartData d;
    d.phases = {{QStringLiteral("forward"), 2e18, {}}, {QStringLiteral("backward"), 4e18, {}}};
    d.components = {{QStringLiteral("attention"), 1e18, {}}};
    chart.setData(d);
    chart.show();
    chart.resize(120, 300);
    for (int pass = 0; pass < 3; ++pass) {
        chart.replotNow();
        QCoreApplication::processEvents();
    }
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY(!g.legend.isEmpty());
    QVERIFY2(chart.width() > 120, qPrintable(QString::number(chart.width())));
    QVERIFY2(!g.cutText.contains(QStringLiteral("the legend's entries")),
             qPrintable(g.cutText.join(QLatin1Char('|'))));
}


// Issue 35: at 1280×720 the tour's charts filled the view and the wheel over them did nothing, so the
// answers below could not be reached. Failed before WheelToPage: the chart library accepted the turn.
void TestChartLayout::theWheelOverAChartScrollsThePage() {
    QScrollArea area;
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    auto* chart = new LossChart;
    chart->setMinimumHeight(400);
    layout->addWidget(chart);
    layout->addSpacing(2000); // the answers, far below
    area.setWidget(page);
    area.setWidgetResizable(true);
    area.resize(600, 400);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QScrollBar* bar = area.verticalScrollBar();
    QCOMPARE(bar->value(), 0);
    QVERIFY(bar->maximum() > 0);
    // The widget under the pointer is the plot inside the chart, not the chart itself.
    QWidget* plot = chart->childAt(chart->rect().center());
    QVERIFY(plot);
    const QPointF at = plot->rect().center();
    QWheelEvent down(at, plot->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                     Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(plot, &down);
    QVERIFY2(bar->value() > 0, "the page did not scroll");
}

// Issue 35: DeepSeek-V3 served on one H100 at 1024×768: "capacity 80 GB" (left of the bar, above its line)
// was drawn over the bar, which reaches far past the line. Failed before the bar narrowed for the label.
void TestChartLayout::theCapacityLabelKeepsOffABarThatDoesNotFit() {
    InferenceMemoryChart chart;
    chart.resize(220, 400); // the Inference page's memory chart at 1024×768
    chart.show();
    InferenceMemoryChartData d;
    d.segments = {{{QStringLiteral("weights"), 1342e9, {}},
                   {QStringLiteral("KV cache"), 11.5e9, {}},
                   {QStringLiteral("activations"), 14.4e9, {}}}};
    d.capacityBytes = 80e9;
    d.gpuLabel = QStringLiteral("one H100-SXM");
    d.fits = false;
    chart.setData(d);
    for (int pass = 0; pass < 3; ++pass) {
        chart.replotNow();
        QCoreApplication::processEvents();
    }
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY(!g.labels.empty());
    QVERIFY(!g.data.empty());
    for (const QRect& label : g.labels)
        for (const QRect& bar : g.data)
            QVERIFY2(!label.adjusted(1, 1, -1, -1).intersects(bar),
                     qPrintable(QStringLiteral("a label (%1,%2 %3×%4) covers the bar (%5,%6 %7×%8)")
                                    .arg(label.x())
                                    .arg(label.y())
                                    .arg(label.width())
                                    .arg(label.height())
                                    .arg(bar.x())
                                    .arg(bar.y())
                                    .arg(bar.width())
                                    .arg(bar.height())));
}

// A chart drawn narrow and then given its width (the Benchmarks page lays its chart out beside the results
// table, then at the page's size): its ticks were fitted before the replot laid the wider axes out, and
// were never fitted again, so the x axis kept the narrow chart's few labels at any width.
void TestChartLayout::aChartThatGrowsLabelsItsWholeAxis_data() {
    QTest::addColumn<bool>("shownFirst");
    QTest::newRow("shown at its minimum") << true;
    QTest::newRow("filled while hidden") << false;
}

void TestChartLayout::aChartThatGrowsLabelsItsWholeAxis() {
    QFETCH(bool, shownFirst);
    ThroughputChart chart;
    if (shownFirst) {
        chart.resize(chart.minimumSizeHint());
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
    }
    // Point by point, as a running sweep fills it.
    ThroughputChartData d;
    d.series.push_back({QStringLiteral("fp32"), {}, 200e9});
    d.series.push_back({QStringLiteral("fp64"), {}, 100e9});
    for (auto& series : d.series)
        for (double n : {128.0, 256.0, 512.0, 1024.0}) {
            series.points.push_back({n, 2 * n * n * n, 1e9 * n / 64, {}});
            chart.setData(d);
            QCoreApplication::processEvents();
        }
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    const QStringList narrow = chart.xTickLabels();
    chart.resize(900, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    const QStringList wide = chart.xTickLabels();
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY2(g.axisRect.width() >= chart.width() / 2, qPrintable(QString::number(g.axisRect.width())));
    QVERIFY(!g.data.empty());
    for (const char* n : {"128", "256", "512", "1024"})
        QVERIFY2(wide.contains(QLatin1String(n)),
                 qPrintable(
                     QStringLiteral("%1 not labelled at 900 px: %2 (before: %3)")
                         .arg(QLatin1String(n), wide.join(QLatin1Char(' ')), narrow.join(QLatin1Char(' ')))));
}

// Issue 35: "usable 85.52 GB" began on the y axis of the Inference page's memory chart and of the timeline
// (its "u" touching the axis line): a label beside an axis stands a few pixels off it. The picture is
// read: the first column, right of the axis, holding the label's ink.
void TestChartLayout::capacityLabelsStandOffTheAxis_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("typeScale");
    for (const char* kind : {"inference", "timeline", "memory"}) {
        QTest::addRow("%s", kind) << QString::fromLatin1(kind) << 1.0;
        QTest::addRow("%s presentation", kind) << QString::fromLatin1(kind) << 1.45;
    }
}

void TestChartLayout::capacityLabelsStandOffTheAxis() {
    QFETCH(QString, kind);
    QFETCH(double, typeScale);
    std::unique_ptr<ChartView> chart;
    if (kind == QLatin1String("inference")) {
        auto inference = std::make_unique<InferenceMemoryChart>();
        InferenceMemoryChartData d;
        d.segments = {{{QStringLiteral("weights"), 16.06e9, {}},
                       {QStringLiteral("KV cache"), 1.07e9, {}},
                       {QStringLiteral("activations"), 0.54e9, {}}}};
        d.capacityBytes = 85.52e9;
        d.usableCapacity = true;
        d.gpuLabel = QStringLiteral("one H100-SXM");
        d.fits = true;
        inference->setData(d);
        chart = std::move(inference);
        chart->resize(250, 340); // the Inference page's memory chart at 1280×720
    } else if (kind == QLatin1String("timeline")) {
        auto timeline = std::make_unique<MemoryTimelineChart>();
        // A long step (GPT-3's 96 layers draw ~400 events): the axis's first event sits hard by the axis.
        MemoryTimelineChartData d;
        for (int i = 0; i < 400; ++i) {
            const bool forward = i < 200;
            d.events << QStringLiteral("%1 layer %2").arg(forward ? "forward" : "backward").arg(i % 200 + 1);
            d.phases << QString::fromLatin1(forward ? "forward" : "backward");
            const double activations = 4e9 * (forward ? i : 400 - i) / 200.0;
            d.bytes.push_back({2e9, forward ? 0 : 2e9, 0, 4e9, activations, 0});
        }
        d.capacityBytes = 85.52e9;
        d.usableCapacity = true;
        timeline->setData(d);
        chart = std::move(timeline);
        chart->resize(900, 420);
    } else {
        auto memory = std::make_unique<MemoryChart>();
        MemoryChartData d = memory->data();
        d.segments[0].bytes = 2e9;
        d.segments[1].bytes = 2e9;
        d.segments[2].bytes = 4e9;
        d.segments[3].bytes = 3e9;
        d.capacityBytes = 85.52e9;
        d.usableCapacity = true;
        d.peakBytes = 11e9;
        d.fits = true;
        memory->setData(d);
        chart = std::move(memory);
        chart->resize(440, 360);
    }
    QFont type = chart->font();
    type.setPointSizeF(type.pointSizeF() * typeScale);
    chart->setFont(type);
    chart->show();
    for (int pass = 0; pass < 3; ++pass) {
        chart->replotNow();
        QCoreApplication::processEvents();
    }
    const ChartLayout g = chart->layoutGeometry();
    const QImage picture = chart->grab().toImage();
    int checked = 0;
    for (std::size_t i = 0; i < g.labels.size(); ++i) {
        const QRect text = g.labelTextBoxes[i];
        if (text.left() > g.axisRect.left() + 40) // not beside the axis
            continue;
        QVERIFY2(text.left() - g.axisRect.left() >= 5,
                 qPrintable(QStringLiteral("\"%1\" begins %2 px right of the y axis (x %3)")
                                .arg(g.labelTexts[i])
                                .arg(text.left() - g.axisRect.left())
                                .arg(g.axisRect.left())));
        // And the text is drawn there: ink (nearer the label's colour than the paper's, the box's
        // commonest colour) inside its box.
        const QColor ink = g.labelColors[i];
        QHash<QRgb, int> counts;
        for (int y = text.top(); y <= text.bottom(); ++y)
            for (int x = text.left(); x <= text.right(); ++x)
                ++counts[picture.pixel(x, y)];
        QRgb paper = 0;
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            if (it.value() > counts.value(paper))
                paper = it.key();
        const auto distance = [](QRgb a, QRgb b) {
            return std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) +
                   std::abs(qBlue(a) - qBlue(b));
        };
        int inked = 0;
        for (int y = text.top(); y <= text.bottom(); ++y)
            for (int x = text.left(); x <= text.right(); ++x)
                inked +=
                    distance(picture.pixel(x, y), ink.rgb()) < distance(picture.pixel(x, y), paper) ? 1 : 0;
        QVERIFY2(inked > text.width(),
                 qPrintable(g.labelTexts[i] + QStringLiteral(": no text drawn in its box")));
        ++checked;
    }
    QVERIFY2(checked > 0, "no capacity label beside the axis");
}

// The charts' fitting measures its texts through measuredText (widgets/text): QFontMetrics' figures, each
// text shaped once per font. A second font of another size is another text.
void TestChartLayout::measuredTextIsQFontMetricsOnce_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("pointSize");
    QTest::newRow("tick label") << QStringLiteral("1.5 TB") << 9;
    QTest::newRow("two lines") << QStringLiteral("memory per GPU\n(decimal units)") << 9;
    QTest::newRow("projector type") << QStringLiteral("FLOPs per step (per GPU)") << 20;
    QTest::newRow("empty") << QString() << 11;
}

void TestChartLayout::measuredTextIsQFontMetricsOnce() {
    QFETCH(QString, text);
    QFETCH(int, pointSize);
    QFont font;
    font.setPointSize(pointSize);
    const QFontMetrics fm(font);
    const long long before = measuredText::shapedCount();
    QCOMPARE(measuredText::horizontalAdvance(font, text), fm.horizontalAdvance(text));
    QCOMPARE(measuredText::horizontalAdvanceF(font, text), QFontMetricsF(font).horizontalAdvance(text));
    QCOMPARE(measuredText::boundingSize(font, text),
             fm.boundingRect(QRect(0, 0, 100000, 100000), Qt::AlignLeft | Qt::AlignTop, text).size());
    const long long shaped = measuredText::shapedCount();
    QVERIFY(shaped > before);
    QCOMPARE(measuredText::horizontalAdvance(font, text), fm.horizontalAdvance(text));
    QCOMPARE(measuredText::boundingSize(font, text),
             fm.boundingRect(QRect(0, 0, 100000, 100000), Qt::AlignLeft | Qt::AlignTop, text).size());
    QCOMPARE(measuredText::shapedCount(), shaped); // remembered
    QFont larger = font;
    larger.setPointSize(pointSize + 4);
    QCOMPARE(measuredText::horizontalAdvance(larger, text), QFontMetrics(larger).horizontalAdvance(text));
    QCOMPARE(measuredText::shapedCount(), shaped + 1);
}

QTEST_MAIN(TestChartLayout)
#include "tst_chart_layout.moc"
