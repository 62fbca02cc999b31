// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline page after benchmarks, in the main window at a classroom's sizes: each finished sweep of the
// Benchmarks page lands on the roof (the window's own connection, as after a run), and the chart keeps its
// height and its labels apart. It once collapsed to a ~110 px strip with its labels piled up until "Clear
// measured points" (issue 35); in the main window today the page scrolls, and what failed was the labels
// piled on each other and on the roof's line, the roof's texts cut at the axes' edges and the plot under half
// the view in presentation type.
#include "app/benchmarks/benchmarks_page.h"
#include "app/roofline/roofline_page.h"
#include "app/shell/main_window.h"
#include "engine/hardware/roofline.h"
#include "widgets/charts/roofline_chart.h"

#include <QComboBox>
#include <QLabel>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

#include <memory>

using namespace napkin;

namespace {

// A sweep as the Benchmarks page reports it: every type × size, `speed` of the peak at the largest size.
MatmulSweep sweepOf(const std::string& backend, const std::string& name, std::vector<BenchDtype> dtypes,
                    double peak, double speed) {
    MatmulSweep s;
    s.device.backend = backend;
    s.device.name = name;
    for (BenchDtype dtype : dtypes)
        for (long n : {128L, 256L, 512L, 1024L, 2048L}) {
            MatmulResult r;
            r.shape = {n, n, n, dtype};
            r.ok = true;
            r.flops = 2.0 * double(n) * double(n) * double(n);
            r.promisedFlopsPerSecond = peak;
            r.flopsPerSecond = speed * peak * double(n) / 2048;
            r.mfu = r.flopsPerSecond / peak;
            r.timing.medianSeconds = r.flops / r.flopsPerSecond;
            r.timing.samples = 11;
            r.callsPerSample = 1;
            s.results.push_back(r);
        }
    return s;
}

} // namespace

class TestRooflineMeasuredPoints : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void chartKeepsItsHeight_data();
    void chartKeepsItsHeight();
    void cleanupTestCase();

private:
    std::unique_ptr<MainWindow> m_window;
};

void TestRooflineMeasuredPoints::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    m_window = std::make_unique<MainWindow>();
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestRooflineMeasuredPoints::cleanupTestCase() {
    if (m_window && m_window->isPresentationMode())
        m_window->setPresentationMode(false);
    m_window.reset();
}

void TestRooflineMeasuredPoints::chartKeepsItsHeight_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presentation");
    QTest::addColumn<QString>("roof"); // the device whose roof is drawn
    for (const QSize& s : {QSize(1024, 768), QSize(1280, 720)})
        for (const bool presentation : {false, true})
            for (const char* roof : {"H100-SXM", "cpu"})
                QTest::addRow("%s-%dx%d%s", roof, s.width(), s.height(), presentation ? "-presentation" : "")
                    << s << presentation << QString::fromLatin1(roof);
}

void TestRooflineMeasuredPoints::chartKeepsItsHeight() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    QFETCH(QString, roof);
    MainWindow& w = *m_window;
    if (w.isPresentationMode() != presentation)
        w.setPresentationMode(presentation);
    QCoreApplication::processEvents();
    w.setWindowState(Qt::WindowNoState);
    w.showNormal();
    RooflinePage* page = w.rooflinePage();
    page->clearMeasuredPoints();
    // This CPU's roof as a measurement sets it: 150 GFLOP/s, 20 GB/s.
    Roofline cpu;
    cpu.device = "this CPU";
    cpu.dtype = "fp32";
    cpu.peakFlopsPerSecond = 150e9;
    cpu.bandwidthBytesPerSecond = 20e9;
    cpu.peakSource = "measured FMA loop";
    cpu.bandwidthSource = "measured triad";
    page->setMeasuredCpuRoof(ComputeType::fp32, cpu);
    auto* device = page->findChild<QComboBox*>(QStringLiteral("device"));
    auto* type = page->findChild<QComboBox*>(QStringLiteral("dtype"));
    QVERIFY(device && type);
    device->setCurrentIndex(device->findData(roof));
    QVERIFY(device->currentIndex() >= 0);
    // The CPU's roof in the type measured; the H100's in bf16, the type of its sweep's half.
    type->setCurrentIndex(
        type->findText(roof == QLatin1String("cpu") ? QStringLiteral("fp32") : QStringLiteral("bf16")));
    // Runs as a class does them: a CPU sweep (fp32 one case above its peak, as a too-short sample reads),
    // a second CPU sweep in more types, and an H100's.
    MatmulSweep first = sweepOf("cpu", "this CPU", {BenchDtype::fp32}, 150e9, 0.7);
    first.results.front().flopsPerSecond = 244.5e9;
    emit w.benchmarksPage()->sweepFinished(first);
    emit w.benchmarksPage()->sweepFinished(
        sweepOf("cpu", "this CPU", {BenchDtype::fp32, BenchDtype::fp64, BenchDtype::bf16}, 150e9, 0.6));
    emit w.benchmarksPage()->sweepFinished(
        sweepOf("cuda", "NVIDIA H100 80GB HBM3", {BenchDtype::bf16, BenchDtype::fp16}, 989e12, 0.75));
    w.pages()->setCurrentWidget(page);
    for (int i = 0; i < 3; ++i) {
        w.resize(size);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
    }
    QCOMPARE(w.size(), size);
    RooflineChart* chart = page->chart();
    for (int pass = 0; pass < 3; ++pass) {
        chart->replotNow();
        QCoreApplication::processEvents();
    }
    QVERIFY(chart->isVisible());
    QVERIFY(chart->data().points.size() >= 30); // 6 types × 5 sizes, and the inference points
    // The height the page has for its chart and notes: its scrolling column's view.
    QScrollArea* column = nullptr;
    for (QWidget* a = chart->parentWidget(); a && !column; a = a->parentWidget())
        column = qobject_cast<QScrollArea*>(a);
    QVERIFY2(column, "the chart is not in the page's scrolling column");
    const int available = column->viewport()->height();
    const ChartLayout g = chart->layoutGeometry();
    const QString picture =
        QStringLiteral("%1/%2.png").arg(QDir::tempPath(), QString::fromLatin1(QTest::currentDataTag()));
    w.grab().save(picture);
    // A plot at least half that view (the notes under the chart scroll): a strip (~110 px) fails, and so
    // did the 230 px the notes left it of 468 in presentation type at 1280×720.
    QVERIFY2(g.axisRect.height() * 2 >= available,
             qPrintable(QStringLiteral("a plot %1 px high where the page has %2 px for the chart and its "
                                       "notes (%3)")
                            .arg(g.axisRect.height())
                            .arg(available)
                            .arg(picture)));
    QVERIFY2(g.cutText.isEmpty(), qPrintable(QStringLiteral("cut: ") + g.cutText.join(QStringLiteral(", "))));
    QVERIFY2(g.crowdedTicks.isEmpty(),
             qPrintable(QStringLiteral("tick labels overlap: ") + g.crowdedTicks.join(QStringLiteral(", "))));
    for (std::size_t i = 0; i < g.labels.size(); ++i)
        for (std::size_t j = i + 1; j < g.labels.size(); ++j)
            QVERIFY2(!g.labels[i].adjusted(1, 1, -1, -1).intersects(g.labels[j].adjusted(1, 1, -1, -1)),
                     qPrintable(QStringLiteral("labels %1 and %2 overlap (%3)").arg(i).arg(j).arg(picture)));
    if (!g.legend.isEmpty())
        for (const QRect& label : g.labels)
            QVERIFY2(!g.legend.intersects(label), "the legend covers a label");
    // Grey points (measured on another device or type) cost no blue point its label: on the CPU's roof
    // the fp64 and bf16 points, at the fp32 points' intensities, left not one blue point named while the
    // grey ones were (issue 35). The blue labels are those the same chart draws without the grey points.
    const QColor blueText = chart->palette().color(QPalette::WindowText);
    const auto blueLabels = [&](const ChartLayout& layout) {
        QStringList out;
        for (std::size_t i = 0; i < layout.labels.size(); ++i)
            if (layout.labelColors[i] == blueText && layout.labelTexts[i].startsWith(QLatin1String("n=")))
                out << layout.labelTexts[i];
        out.sort();
        return out;
    };
    // Without the grey points among the blue ones; those far off (the other device's) stay, so that the
    // axes keep their ranges and the labels their room.
    using Style = RooflineChartData::Style;
    RooflineChartData withoutGrey = chart->data();
    double lowX = 1e300, highX = 0, lowY = 1e300, highY = 0;
    for (const auto& p : withoutGrey.points)
        if (p.style == Style::measured) {
            lowX = std::min(lowX, p.flopsPerByte);
            highX = std::max(highX, p.flopsPerByte);
            lowY = std::min(lowY, p.flopsPerSecond);
            highY = std::max(highY, p.flopsPerSecond);
        }
    std::erase_if(withoutGrey.points, [&](const auto& p) {
        return p.style == Style::otherRoof && p.flopsPerByte > lowX / 2 && p.flopsPerByte < highX * 2 &&
               p.flopsPerSecond > lowY / 10 && p.flopsPerSecond < highY * 10;
    });
    QVERIFY(withoutGrey.points.size() < chart->data().points.size());
    RooflineChart alone;
    alone.setFont(chart->font());
    alone.setPalette(chart->palette());
    alone.setAttribute(Qt::WA_DontShowOnScreen);
    alone.resize(chart->size());
    alone.show();
    alone.setData(withoutGrey);
    for (int pass = 0; pass < 3; ++pass) {
        alone.replotNow();
        QCoreApplication::processEvents();
    }
    QCOMPARE(alone.layoutGeometry().axisRect, g.axisRect);
    QVERIFY(!blueLabels(alone.layoutGeometry()).isEmpty());
    // As many, whichever spots the grey markers steered them to.
    const QStringList named = blueLabels(g), namedAlone = blueLabels(alone.layoutGeometry());
    QVERIFY2(named.size() >= namedAlone.size(),
             qPrintable(
                 QStringLiteral("blue labels %1 among the grey points, %2 without them (%3)")
                     .arg(named.join(QStringLiteral(", ")), namedAlone.join(QStringLiteral(", ")), picture)));
    // The notes under the chart say what the points mean ("above the roof: …"): in the page's type, which
    // presentation mode enlarges (a style sheet had pinned them at 12 px under 17 px notes).
    const int body = QFontInfo(page->findChild<QLabel*>(QStringLiteral("roofNote"))->font()).pixelSize();
    for (const char* name : {"aboveRoof", "pointsNote", "inferenceNote"}) {
        const auto* note = page->findChild<QLabel*>(QLatin1String(name));
        QVERIFY(note && note->isVisible());
        QVERIFY2(QFontInfo(note->font()).pixelSize() >= body,
                 qPrintable(QStringLiteral("%1: %2 px beside %3 px")
                                .arg(QLatin1String(name))
                                .arg(QFontInfo(note->font()).pixelSize())
                                .arg(body)));
    }
}

QTEST_MAIN(TestRooflineMeasuredPoints)
#include "tst_roofline_measured_points.moc"
