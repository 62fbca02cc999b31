// SPDX-License-Identifier: GPL-3.0-or-later
// Exports that show what the screen shows. Each chart and page is exported as PNG at scales 1, 2 and 3, as
// SVG (drawn by Qt's renderer) and as PDF (drawn by poppler's pdftoppm, as a slide tool would), scaled to
// the size it has on screen and compared with QWidget::grab: cell by cell within a small tolerance, and
// region by region (the plot rectangle with its axes, the legend with its names, the labels on the plot),
// so that a picture of the chart's top-left quarter magnified, or of the page as a thumbnail in a corner
// of the sheet, fails. The chart is compared in the place the captioned export gives it (under the title,
// above the settings line): the picture a slide gets.
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/formats/number_formats_page.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/image_format.h"
#include "widgets/charts/memory_chart.h"

#include <QAbstractScrollArea>
#include <QHeaderView>
#include <QPainter>
#include <QProcess>
#include <QScrollBar>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QtTest>

#include <memory>
#include <utility>
#include <vector>

namespace {

constexpr int kCell = 8;               // pixels averaged into one cell of the comparison
constexpr int kCellTolerance = 40;     // grey levels a cell may differ by (anti-aliasing, font rasterisers)
constexpr double kMostOffCells = 0.02; // of the cells
constexpr double kMeanTolerance = 6;   // grey levels, over the whole picture

struct Region {
    QString name;
    QRect rect; ///< in the reference's coordinates
};

// The export, whatever its format, as an image of `size` pixels (the on-screen size).
QImage rasterised(const QString& suffix, const QByteArray& bytes, QSize size, QString* error) {
    if (suffix == QLatin1String("png"))
        return QImage::fromData(bytes, "PNG").scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    if (suffix == QLatin1String("svg")) {
        QSvgRenderer svg(bytes);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        svg.render(&painter, QRectF(QPointF(0, 0), size));
        return image;
    }
    // A PDF as a reader draws it: poppler, not Qt.
    const QString pdftoppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    if (pdftoppm.isEmpty()) {
        *error = QStringLiteral("pdftoppm (poppler-utils) is not installed: scripts/install-deps.sh --test");
        return {};
    }
    QTemporaryDir dir;
    QFile pdf(dir.filePath(QStringLiteral("in.pdf")));
    if (!pdf.open(QIODevice::WriteOnly) || pdf.write(bytes) != bytes.size())
        return {};
    pdf.close();
    QProcess poppler;
    poppler.start(pdftoppm,
                  {QStringLiteral("-png"), QStringLiteral("-singlefile"), QStringLiteral("-scale-to-x"),
                   QString::number(size.width()), QStringLiteral("-scale-to-y"),
                   QString::number(size.height()), pdf.fileName(), dir.filePath(QStringLiteral("out"))});
    if (!poppler.waitForFinished(30000) || poppler.exitCode() != 0) {
        *error = QStringLiteral("pdftoppm: ") + QString::fromLocal8Bit(poppler.readAllStandardError());
        return {};
    }
    return QImage(dir.filePath(QStringLiteral("out.png")));
}

QImage grey(const QImage& image) {
    return image.convertToFormat(QImage::Format_Grayscale8);
}

// Fraction of the pixels in `rect` darker than the background by a third of the range: text, lines, bars.
double ink(const QImage& image, const QRect& rect) {
    const QRect r = rect & image.rect();
    if (r.isEmpty())
        return 0;
    // The paper is what most of the rect is, light or dark: one corner pixel was (a capacity label's box
    // ends on its dashed line, and the dash fell on the corner in one rasteriser and not the other).
    long long sum = 0;
    for (int y = r.top(); y <= r.bottom(); ++y) {
        const uchar* line = image.constScanLine(y);
        for (int x = r.left(); x <= r.right(); ++x)
            sum += line[x];
    }
    const int paper = sum > 128LL * r.width() * r.height() ? 255 : 0;
    int inked = 0;
    for (int y = r.top(); y <= r.bottom(); ++y) {
        const uchar* line = image.constScanLine(y);
        for (int x = r.left(); x <= r.right(); ++x)
            inked += std::abs(int(line[x]) - paper) > 85 ? 1 : 0;
    }
    return double(inked) / (double(r.width()) * r.height());
}

// Empty when `picture` shows what `reference` shows; else what differs, in words.
QString differences(const QImage& reference, const QImage& picture, const std::vector<Region>& regions) {
    if (picture.size() != reference.size())
        return QStringLiteral("size %1×%2, not %3×%4")
            .arg(picture.width())
            .arg(picture.height())
            .arg(reference.width())
            .arg(reference.height());
    const QImage a = grey(reference), b = grey(picture);
    const QSize cells(a.width() / kCell, a.height() / kCell);
    const QImage ca = a.scaled(cells, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    const QImage cb = b.scaled(cells, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    int off = 0;
    double sum = 0;
    for (int y = 0; y < cells.height(); ++y)
        for (int x = 0; x < cells.width(); ++x) {
            const int d = std::abs(qGray(ca.pixel(x, y)) - qGray(cb.pixel(x, y)));
            sum += d;
            off += d > kCellTolerance ? 1 : 0;
        }
    const double total = double(cells.width()) * cells.height();
    QStringList out;
    if (off > kMostOffCells * total || sum / total > kMeanTolerance)
        out << QStringLiteral("%1 of %2 cells off by more than %3 grey levels, %4 on average")
                   .arg(off)
                   .arg(total)
                   .arg(kCellTolerance)
                   .arg(sum / total, 0, 'f', 1);
    // Each region keeps its ink (a legend whose names are missing, a plot with no axes or bars, a label
    // drawn three times its size, all change it), within what rasterisers differ by.
    for (const Region& region : regions) {
        const double want = ink(a, region.rect), got = ink(b, region.rect);
        if (got < 0.6 * want || got > 1.6 * want + 0.01)
            out << QStringLiteral("%1: ink %2, on screen %3")
                       .arg(region.name)
                       .arg(got, 0, 'f', 3)
                       .arg(want, 0, 'f', 3);
    }
    return out.join(QStringLiteral("; "));
}

// Where a chart drew its plot, legend and labels, in `origin`'s coordinates: the parts the screen shows (a
// chart partly scrolled out of its panel is compared where it is seen; what the picture draws beyond the
// panel is scrolledContentStaysInItsPanel's).
void addChartRegions(const ChartView& chart, QPoint origin, std::vector<Region>& regions,
                     const QWidget* page = nullptr) {
    const ChartLayout g = chart.layoutGeometry();
    // The chart's rect cut by each widget it lies in (a scrolled panel's viewport), up to the page, in the
    // chart's coordinates.
    QRect shown = chart.rect();
    if (page)
        for (const QWidget* a = chart.parentWidget(); a; a = a == page ? nullptr : a->parentWidget())
            shown &= QRect(chart.mapFrom(a, QPoint(0, 0)), a->size());
    const auto add = [&](const QString& part, const QRect& rect) {
        const QRect seen = rect & shown;
        if (!seen.isEmpty())
            regions.push_back({chart.title() + part, seen.translated(origin)});
    };
    add(QStringLiteral(": plot and axes"), g.axisRect.adjusted(-3, -3, 3, 3));
    if (!g.legend.isEmpty())
        add(QStringLiteral(": legend"), g.legend);
    for (const QRect& label : g.labels)
        add(QStringLiteral(": label"), label);
}

void settle() {
    for (int pass = 0; pass < 4; ++pass)
        QCoreApplication::processEvents();
}

void saveForReview(const QImage& image, const QString& name) {
    const QString dir = QString::fromLocal8Bit(qgetenv("NAPKIN_PICTURE_DIR"));
    if (!dir.isEmpty())
        image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

} // namespace

class TestExportPicture : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void chartMatchesScreen_data();
    void chartMatchesScreen();
    void pageMatchesScreen_data();
    void pageMatchesScreen();
    void scrolledContentStaysInItsPanel_data();
    void scrolledContentStaysInItsPanel();
    void scrolledTableStaysInItsFrame_data();
    void scrolledTableStaysInItsFrame();

private:
    std::unique_ptr<AccountingPage> m_accounting;
};

void TestExportPicture::initTestCase() {
    m_accounting = std::make_unique<AccountingPage>();
    m_accounting->applyPreset(*findPreset(QStringLiteral("gpt3-175b")));
}

namespace {

void addFormatRows(const char* what) {
    const std::pair<const char*, double> formats[] = {
        {"png", 1.0}, {"png", 2.0}, {"png", 3.0}, {"svg", 1.0}, {"pdf", 1.0}};
    for (const auto& [suffix, scale] : formats)
        QTest::addRow("%s, %s at %g×", what, suffix, scale)
            << QString::fromLatin1(what) << QString::fromLatin1(suffix) << scale;
}

void addColumns() {
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<double>("scale");
}

} // namespace

void TestExportPicture::chartMatchesScreen_data() {
    addColumns();
    addFormatRows("memory");
    addFormatRows("flops");
}

// The chart as a slide gets it (captioned: title above, settings below) against the chart on screen at the
// size the picture gives it.
void TestExportPicture::chartMatchesScreen() {
    QFETCH(QString, what);
    QFETCH(QString, suffix);
    QFETCH(double, scale);
    std::unique_ptr<ChartView> chart;
    if (what == QLatin1String("memory")) {
        auto memory = std::make_unique<MemoryChart>();
        memory->setData(m_accounting->memoryChart()->data());
        chart = std::move(memory);
    } else {
        auto flops = std::make_unique<FlopChart>();
        flops->setData(m_accounting->flopChart()->data());
        chart = std::move(flops);
    }
    chart->setSettingsCaption(QStringLiteral("napkin-cli account --preset gpt3-175b"));
    const QSize size(640, 420);
    const QRect area = chart->chartRectIn(size);
    QVERIFY(area.height() > size.height() * 3 / 4); // the captions leave the chart most of the picture
    chart->setAttribute(Qt::WA_DontShowOnScreen);
    chart->resize(area.size());
    chart->show();
    settle();
    chart->replotNow();
    const QImage screen = chart->grab().toImage().scaled(area.size());
    std::vector<Region> regions;
    addChartRegions(*chart, QPoint(), regions);

    const QByteArray bytes = chart->renderAs(*imageFormatForPath(QStringLiteral("x.") + suffix), size, scale);
    QVERIFY(!bytes.isEmpty());
    QString error;
    const QImage picture = rasterised(suffix, bytes, size, &error);
    QVERIFY2(!picture.isNull(), qPrintable(error));
    const QString name = QStringLiteral("%1-%2-%3x").arg(what, suffix).arg(scale);
    saveForReview(screen, name + QStringLiteral("-screen"));
    saveForReview(picture, name);
    // The title and the settings line are there, in their bands.
    QVERIFY2(ink(grey(picture), QRect(0, 0, size.width(), area.top())) > 0.005, qPrintable(name));
    QVERIFY2(ink(grey(picture),
                 QRect(0, area.bottom() + 1, size.width(), size.height() - area.bottom() - 1)) > 0.005,
             qPrintable(name));
    const QString off = differences(screen, picture.copy(area), regions);
    QVERIFY2(off.isEmpty(), qPrintable(name + QStringLiteral(": ") + off));
}

void TestExportPicture::pageMatchesScreen_data() {
    addColumns();
    addFormatRows("accounting");
    addFormatRows("formats");
}

// The page as `napkin --export --page` draws it against the page on screen.
void TestExportPicture::pageMatchesScreen() {
    QFETCH(QString, what);
    QFETCH(QString, suffix);
    QFETCH(double, scale);
    std::unique_ptr<NumberFormatsPage> formats;
    QWidget* page = m_accounting.get();
    if (what == QLatin1String("formats")) {
        formats = std::make_unique<NumberFormatsPage>();
        page = formats.get();
    }
    const QSize size(960, 600);
    const QByteArray bytes =
        renderWidget(*page, *imageFormatForPath(QStringLiteral("x.") + suffix), size, scale);
    QVERIFY(!bytes.isEmpty());
    QCOMPARE(page->size(), size);
    const QImage screen = page->grab().toImage().scaled(size);
    std::vector<Region> regions;
    for (const ChartView* chart : page->findChildren<ChartView*>())
        if (chart->isVisibleTo(page))
            addChartRegions(*chart, chart->mapTo(page, QPoint()), regions, page);
    QVERIFY(!regions.empty());
    QString error;
    const QImage picture = rasterised(suffix, bytes, size, &error);
    QVERIFY2(!picture.isNull(), qPrintable(error));
    const QString name = QStringLiteral("page-%1-%2-%3x").arg(what, suffix).arg(scale);
    saveForReview(screen, name + QStringLiteral("-screen"));
    saveForReview(picture, name);
    const QString off = differences(screen, picture, regions);
    QVERIFY2(off.isEmpty(), qPrintable(name + QStringLiteral(": ") + off));
}

void TestExportPicture::scrolledContentStaysInItsPanel_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("suffix");
    // GPT-2 small at 1280×720: the answers' overheads row is cut by the results panel's bottom edge.
    for (const char* suffix : {"png", "svg", "pdf"}) {
        QTest::addRow("gpt2-small 1280x720 %s", suffix)
            << QStringLiteral("gpt2-small") << QSize(1280, 720) << QString::fromLatin1(suffix);
        QTest::addRow("gpt3-175b 960x600 %s", suffix)
            << QStringLiteral("gpt3-175b") << QSize(960, 600) << QString::fromLatin1(suffix);
    }
}

// What a scrolled panel holds beyond its edges stays out of the picture, as the screen clips it: the band
// just past each edge of every panel that scrolls carries the ink it carries on screen. SVG and PDF drew a
// row of answers cut by the results panel's bottom edge whole, over the "How is this computed?" bar below
// it (Qt's SVG generator keeps no clip, and its PDF engine lost a viewport's).
void TestExportPicture::scrolledContentStaysInItsPanel() {
    QFETCH(QString, preset);
    QFETCH(QSize, size);
    QFETCH(QString, suffix);
    AccountingPage page;
    page.applyPreset(*findPreset(preset));
    const QByteArray bytes = renderWidget(page, *imageFormatForPath(QStringLiteral("x.") + suffix), size);
    QVERIFY(!bytes.isEmpty());
    const QImage screen = page.grab().toImage().scaled(size);
    std::vector<Region> bands;
    int overflowing = 0;
    constexpr int kBand = 12; // px past the edge
    for (const QAbstractScrollArea* area : page.findChildren<QAbstractScrollArea*>()) {
        if (!area->isVisibleTo(&page) || area->verticalScrollBar()->maximum() == 0)
            continue;
        ++overflowing;
        const QRect r(area->viewport()->mapTo(&page, QPoint()), area->viewport()->size());
        for (const QRect& band : {QRect(r.left(), r.bottom() + 1, r.width(), kBand),
                                  QRect(r.left(), r.top() - kBand, r.width(), kBand)}) {
            const QRect inPage = band & page.rect();
            if (inPage.height() >= kBand / 2)
                bands.push_back(
                    {area->objectName() + QStringLiteral(" (%1, %2)").arg(band.x()).arg(band.y()), inPage});
        }
    }
    QVERIFY2(overflowing > 0, "no panel scrolls: the row checks nothing");
    QVERIFY(!bands.empty());
    QString error;
    const QImage picture = rasterised(suffix, bytes, size, &error);
    QVERIFY2(!picture.isNull(), qPrintable(error));
    const QString name = QStringLiteral("scrolled-%1-%2").arg(preset, suffix);
    saveForReview(screen, name + QStringLiteral("-screen"));
    saveForReview(picture, name);
    const QString off = differences(screen, picture, bands);
    QVERIFY2(off.isEmpty(), qPrintable(name + QStringLiteral(": ") + off));
}

void TestExportPicture::scrolledTableStaysInItsFrame_data() {
    QTest::addColumn<QString>("suffix");
    for (const char* suffix : {"png", "svg", "pdf"})
        QTest::newRow(suffix) << QString::fromLatin1(suffix);
}

// A table with more rows than it shows (a results table after many runs) paints its last row cut by its
// viewport's edge, relying on the clip, and so does its row header: in SVG and PDF both stop there too.
void TestExportPicture::scrolledTableStaysInItsFrame() {
    QFETCH(QString, suffix);
    QWidget page;
    auto* layout = new QVBoxLayout(&page);
    auto* table = new QTableWidget(40, 3, &page);
    for (int row = 0; row < table->rowCount(); ++row)
        for (int column = 0; column < table->columnCount(); ++column)
            table->setItem(row, column, new QTableWidgetItem(QStringLiteral("%1 MMMM WWWW").arg(row)));
    layout->addWidget(table, 1);
    layout->addSpacing(40); // paper under the table, where a leaked row would show
    const QSize size(420, 305);
    const QByteArray bytes = renderWidget(page, *imageFormatForPath(QStringLiteral("x.") + suffix), size);
    QVERIFY(!bytes.isEmpty());
    QVERIFY(table->verticalScrollBar()->maximum() > 0);
    const QImage screen = page.grab().toImage().scaled(size);
    const int below = table->geometry().bottom() + 1;
    const std::vector<Region> bands{
        {QStringLiteral("below the table"), QRect(table->x(), below, table->width(), 30)},
        {QStringLiteral("below the row header"),
         QRect(table->x(), below, table->verticalHeader()->width(), 30)}};
    QString error;
    const QImage picture = rasterised(suffix, bytes, size, &error);
    QVERIFY2(!picture.isNull(), qPrintable(error));
    saveForReview(picture, QStringLiteral("table-") + suffix);
    const QString off = differences(screen, picture, bands);
    QVERIFY2(off.isEmpty(), qPrintable(suffix + QStringLiteral(": ") + off));
}

QTEST_MAIN(TestExportPicture)
#include "tst_export_picture.moc"
