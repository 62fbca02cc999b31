// SPDX-License-Identifier: GPL-3.0-or-later
// The training bar and the serving bar are one StackedBarChart: the same segment under the pointer, the
// same tooltip (name, size, exact bytes, formula), a zero segment left out of the legend, for both; and the
// same verdict, clear of the capacity line and its label and readable on a dark projector palette.
#include "widgets/charts/inference_memory_chart.h"
#include "widgets/charts/memory_chart.h"

#include <QPalette>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>

namespace {

// WCAG 2's relative luminance and contrast ratio.
double luminance(const QColor& c) {
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, Qt::black);
    p.setColor(QPalette::Base, Qt::black);
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    return p;
}

} // namespace

class TestStackedBarChart : public QObject {
    Q_OBJECT
private slots:
    void servingBar();
    void trainingBar();
    void smallBarIsSeenOverItsOverheads();
    void verdictKeepsClearOfTheCapacity_data();
    void verdictKeepsClearOfTheCapacity();
    void gridLinesPassBehindTheLabels_data();
    void gridLinesPassBehindTheLabels();
};

// Llama 3 8B on one H100 at 8192 tokens (tests/engine/accounting/tst_inference_accounting.cpp): weights
// 16,060,522,496 B, a 1 GiB cache; activations left at 0 to see the legend drop them.
void TestStackedBarChart::servingBar() {
    InferenceMemoryChart chart;
    InferenceMemoryChartData d;
    d.segments[0] = {QStringLiteral("weights"), 16060522496.0, QStringLiteral("Q·2 + R·2")};
    d.segments[1] = {QStringLiteral("KV cache"), 1073741824.0, QStringLiteral("B·S·kv_per_token")};
    d.segments[2] = {QStringLiteral("activations"), 0, {}};
    d.capacityBytes = 80e9;
    chart.setData(d);
    QCOMPARE(chart.segmentAt(1e9), 0);
    QCOMPARE(chart.segmentAt(16.5e9), 1);
    QCOMPARE(chart.segmentAt(17.2e9), -1); // above the bar (16,060,522,496 + 1,073,741,824)
    QCOMPARE(chart.tooltipFor(1), QStringLiteral("KV cache: 1.074 GB (1073741824 B)\nB·S·kv_per_token"));
    chart.replotNow();
    QCOMPARE(chart.layoutGeometry().legend.isEmpty(), false);
    QCOMPARE(chart.legendNames(), QStringList({QStringLiteral("weights"), QStringLiteral("KV cache")}));
}

// The lecture's Cruncher in fp32 with AdamW: 144 B parameters, 144 gradients, 288 optimizer state and
// 64 activations; no master weights, which the legend leaves out.
void TestStackedBarChart::trainingBar() {
    MemoryChart chart;
    MemoryChartData d;
    d.segments[0].bytes = 144;
    d.segments[1].bytes = 144;
    d.segments[3].bytes = 288;
    d.segments[4] = {QStringLiteral("activations"), 64, QStringLiteral("B·d·L·4")};
    d.capacityBytes = 80e9;
    chart.setData(d);
    QCOMPARE(chart.segmentAt(300), 3);
    QCOMPARE(chart.segmentAt(600), 4);
    QCOMPARE(chart.segmentAt(700), -1);
    QCOMPARE(chart.tooltipFor(4), QStringLiteral("activations: 64 B (64 B)\nB·d·L·4"));
    chart.setByteUnits(napkin::ByteUnits::binary);
    QCOMPARE(chart.byteUnits(), napkin::ByteUnits::binary);
    chart.replotNow();
    QCOMPARE(chart.legendNames(),
             QStringList({QStringLiteral("parameters"), QStringLiteral("gradients"),
                          QStringLiteral("optimizer state"), QStringLiteral("activations")}));
}

// The lecture's Cruncher (496 B, peak 464 B) on an H100 judged on usable memory: 69.21 MB of overheads
// (CUDA context and library workspaces) on top. The axis was scaled to the overheads, which are not drawn,
// and the bar was under a pixel tall; it follows the bar now, the overheads named in the verdict.
void TestStackedBarChart::smallBarIsSeenOverItsOverheads() {
    MemoryChart chart;
    MemoryChartData d;
    d.segments[0].bytes = 144;
    d.segments[1].bytes = 144;
    d.segments[3].bytes = 144;
    d.segments[4] = {QStringLiteral("activations"), 64, QStringLiteral("B·d·L·4")};
    d.capacityBytes = 85.52e9;
    d.usableCapacity = true;
    d.peakBytes = 464;
    d.peakEvent = QStringLiteral("backward layer 2");
    d.overheadBytes = 69.21e6;
    chart.setData(d);
    chart.resize(330, 260); // the page's bar at 1024×768
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.replotNow();
    chart.replotNow();
    QVERIFY(chart.capacityOffScale());
    const ChartLayout g = chart.layoutGeometry();
    QVERIFY(g.axisRect.height() > 100);
    QVERIFY(!g.data.empty());
    int barTop = g.axisRect.bottom();
    for (const QRect& box : g.data)
        barTop = std::min(barTop, box.top());
    const int barHeight = g.axisRect.bottom() - barTop;
    QVERIFY2(barHeight > g.axisRect.height() / 3,
             qPrintable(QStringLiteral("the bar is %1 px of %2").arg(barHeight).arg(g.axisRect.height())));
    QVERIFY(g.labelTexts.join(QLatin1Char(' ')).contains(QStringLiteral("overheads")));
}

void TestStackedBarChart::verdictKeepsClearOfTheCapacity_data() {
    QTest::addColumn<QString>("bar");
    QTest::addColumn<bool>("presentation");
    QTest::addColumn<bool>("dark");
    for (const char* bar : {"training fits", "training peak does not fit", "serving fits"})
        for (const bool presentation : {false, true})
            for (const bool dark : {false, true})
                QTest::addRow("%s%s%s", bar, presentation ? ", presentation" : "", dark ? ", dark" : "")
                    << QString::fromLatin1(bar) << presentation << dark;
}

// A bar that reaches its GPU's capacity: "80 GB — fits" and "capacity 80 GB" were drawn on top of each
// other (the lecture tour in presentation mode at 1280×720), a peak that does not fit over a sum that does
// had its verdict struck through by the capacity line, and the verdict's green was dark green on a dark
// projector palette (about 4:1, under WCAG AA's 4.5:1).
void TestStackedBarChart::verdictKeepsClearOfTheCapacity() {
    QFETCH(QString, bar);
    QFETCH(bool, presentation);
    QFETCH(bool, dark);
    std::unique_ptr<StackedBarChart> chart;
    if (bar.startsWith(QLatin1String("training"))) {
        auto training = std::make_unique<MemoryChart>();
        MemoryChartData d = training->data();
        const bool fits = bar == QLatin1String("training fits");
        d.segments[0].bytes = 16e9;
        d.segments[1].bytes = 16e9;
        d.segments[3].bytes = fits ? 40e9 : 30e9;
        d.segments[4].bytes = fits ? 8e9 : 10e9; // 80 GB, or 72 GB
        d.capacityBytes = 80e9;
        d.peakBytes = fits ? 0 : 95e9;
        d.peakEvent = QStringLiteral("backward layer 24");
        d.fits = fits;
        d.gpuLabel = QStringLiteral("per H100-SXM");
        training->setData(d);
        chart = std::move(training);
    } else {
        auto serving = std::make_unique<InferenceMemoryChart>();
        InferenceMemoryChartData d = serving->data();
        d.segments[0].bytes = 16e9;
        d.segments[1].bytes = 63e9; // 79 GB of 80
        d.capacityBytes = 80e9;
        d.gpuLabel = QStringLiteral("one of 1 × H100-SXM");
        serving->setData(d);
        chart = std::move(serving);
    }
    if (dark)
        chart->setPalette(darkPalette());
    if (presentation) {
        QFont big = chart->font();
        big.setPointSizeF(big.pointSizeF() * 1.45); // presentation mode's type
        chart->setFont(big);
        chart->setLineScale(2.5);
    }
    chart->resize(presentation ? QSize(440, 320) : QSize(330, 260)); // the pages' bars at 1280×720, 1024×768
    chart->show();
    QCoreApplication::processEvents();
    chart->replotNow();
    chart->replotNow();
    const ChartLayout g = chart->layoutGeometry();
    if (const QString dir = QString::fromLocal8Bit(qgetenv("NAPKIN_PICTURE_DIR"));
        !dir.isEmpty()) // to look at
        chart->grab().save(dir + QLatin1Char('/') + QString::fromLatin1(QTest::currentDataTag()) +
                           QStringLiteral(".png"));
    QVERIFY(g.labels.size() >= 2); // the verdict and the capacity
    QCOMPARE(g.labelColors.size(), g.labels.size());
    QVERIFY(!g.rules.empty()); // the capacity line
    for (std::size_t i = 0; i < g.labels.size(); ++i) {
        for (std::size_t j = i + 1; j < g.labels.size(); ++j)
            QVERIFY2(!g.labels[i].intersects(g.labels[j]),
                     qPrintable(QStringLiteral("labels %1 and %2").arg(i).arg(j)));
        for (const QLine& rule : g.rules) {
            const QRect& r = g.labels[i];
            const bool across = r.top() < rule.y1() && rule.y1() < r.bottom() &&
                                std::max(rule.x1(), rule.x2()) > r.left() &&
                                std::min(rule.x1(), rule.x2()) < r.right();
            QVERIFY2(!across, qPrintable(QStringLiteral("label %1 (%2..%3) struck by the line at %4")
                                             .arg(i)
                                             .arg(r.top())
                                             .arg(r.bottom())
                                             .arg(rule.y1())));
        }
        const double ratio = contrast(g.labelColors[i], chart->palette().color(QPalette::Base));
        QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("label %1 (%2) contrast %3:1")
                                              .arg(i)
                                              .arg(g.labelColors[i].name())
                                              .arg(ratio, 0, 'f', 2)));
    }
}

// The dark screenshot (1024×768): the 25 GB grid line ran through "+ overheads 69.21 MB — fits". A label's
// text sits on the plot's paper: inside its text box every pixel is the paper, the text's colour or a blend
// of the two (antialiasing), never a grid line's grey.
void TestStackedBarChart::gridLinesPassBehindTheLabels_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void TestStackedBarChart::gridLinesPassBehindTheLabels() {
    QFETCH(bool, dark);
    MemoryChart chart;
    if (dark)
        chart.setPalette(darkPalette());
    MemoryChartData d = chart.data();
    d.segments[0].bytes = 4e9;
    d.segments[1].bytes = 4e9;
    d.segments[3].bytes = 8e9; // 16 GB: 1B parameters, fp32 Adam
    d.capacityBytes = 85.52e9;
    d.usableCapacity = true;
    d.peakBytes = 16e9;
    d.overheadBytes = 69.21e6;
    d.fits = true;
    d.gpuLabel = QStringLiteral("one H100-SXM");
    chart.setData(d);
    chart.resize(265, 215); // the Accounting page's bar at 1024×768
    chart.show();
    for (int pass = 0; pass < 3; ++pass) {
        chart.replotNow();
        QCoreApplication::processEvents();
    }
    const ChartLayout g = chart.layoutGeometry();
    const QImage picture = chart.grab().toImage();
    const QColor paper = chart.palette().color(QPalette::Base);
    QVERIFY(!g.labelTextBoxes.empty());
    for (std::size_t i = 0; i < g.labelTextBoxes.size(); ++i) {
        const QColor ink = g.labelColors[i];
        // How far a colour is from the line between paper and ink (0 on it).
        const auto offBlend = [&](const QColor& c) {
            double best = 1e9;
            for (int k = 0; k <= 20; ++k) {
                const double t = k / 20.0;
                best = std::min(
                    best, std::abs(c.red() - (paper.red() + t * (ink.red() - paper.red()))) +
                              std::abs(c.green() - (paper.green() + t * (ink.green() - paper.green()))) +
                              std::abs(c.blue() - (paper.blue() + t * (ink.blue() - paper.blue()))));
            }
            return best;
        };
        // Inside the axes, clear of the y axis's ticks, which point into them.
        const QRect box = g.labelTextBoxes[i].adjusted(1, 1, -1, -1) & g.axisRect.adjusted(7, 1, -1, -1);
        for (int y = box.top(); y <= box.bottom(); ++y)
            for (int x = box.left(); x <= box.right(); ++x) {
                const QColor c = picture.pixelColor(x, y);
                QVERIFY2(offBlend(c) < 45,
                         qPrintable(QStringLiteral("\"%1\": %2 at %3,%4 is neither its text nor the paper")
                                        .arg(g.labelTexts[i], c.name())
                                        .arg(x)
                                        .arg(y)));
            }
    }
    // And the paper behind a label hides no part of the capacity line under it: as many of the line's
    // pixels under the capacity label as along as much of the line right of it.
    QVERIFY(!g.rules.empty());
    const int lineY = g.rules.front().y1();
    QRect capacity;
    for (const QRect& label : g.labels)
        if (label.bottom() <= lineY + 2 && label.bottom() >= lineY - 6 &&
            label.left() < g.axisRect.center().x())
            capacity = label;
    QVERIFY(!capacity.isEmpty());
    // The line's pixels in a column span: its rows, one either side of where it is drawn (a 2 px pen).
    const auto drawn = [&](int from, int to) {
        int n = 0;
        for (int x = from; x < to; ++x)
            for (int y = lineY - 1; y <= lineY + 1; ++y) {
                const QColor c = picture.pixelColor(x, y);
                n += std::abs(c.red() - paper.red()) + std::abs(c.green() - paper.green()) +
                                 std::abs(c.blue() - paper.blue()) >
                             90
                         ? 1
                         : 0;
            }
        return n;
    };
    // The line's pixels per column under the label and right of it, to the axes' edge.
    const int from = capacity.left() + 2, to = capacity.right() - 1, end = g.axisRect.right() - 1;
    QVERIFY(to > from && end > to + 20);
    const double under = double(drawn(from, to)) / (to - from);
    const double beside = double(drawn(to + 1, end)) / (end - to - 1);
    QVERIFY2(beside > 0.6 && under >= 0.85 * beside,
             qPrintable(QStringLiteral("the line under the label: %1 px drawn per column, %2 beside it")
                            .arg(under, 0, 'f', 2)
                            .arg(beside, 0, 'f', 2)));
}

QTEST_MAIN(TestStackedBarChart)
#include "tst_stacked_bar_chart.moc"
