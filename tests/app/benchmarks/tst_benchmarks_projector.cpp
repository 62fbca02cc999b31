// SPDX-License-Identifier: GPL-3.0-or-later
// The Benchmarks page in the main window at a classroom's sizes, as a projector shows it. Ticking fp16
// shows a warning in the controls column: its lines fit its box, no parent cuts it and nothing lies on it
// (it was drawn with two of its six lines cut). The page's notes (the refused types, the fp16 warning, the
// refused recipes) answer "why is this type greyed out?": in presentation mode they grow with its type and
// read at WCAG AA's 4.5:1 on its paper, light and dark (a style sheet pinned their font, so presentation's
// type passed them by; grey was 3.9:1 on white, the amber 4.45:1 on black). The refused-recipes note of the
// training controls is whole too (a form layout cut it). The throughput chart keeps a plot with its axis
// titles on two lines at most, its table beside or under it, nothing cut at the viewport's side (at
// 1280×720 in presentation type it had 139 px of axes beside an empty table, its x title on four lines).
// A finished recipe comparison in presentation type keeps its table and chart inside the viewport, the chart
// as tall as its legend needs. With NAPKIN_SCREENSHOT_DIR set, each window judged is written there as a PNG.
#include "app/benchmarks/benchmarks_page.h"
#include "app/benchmarks/matmul_sweep_panel.h"
#include "app/benchmarks/recipe_comparison_panel.h"
#include "app/shell/main_window.h"
#include "tests/support/wcag_contrast.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/throughput_chart.h"

#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include <memory>

namespace {

QRect inWindow(const QWidget* w, const QWidget* window) {
    return {w->mapTo(window, QPoint(0, 0)), w->size()};
}

bool isScrollViewport(const QWidget* w) {
    const auto* area = qobject_cast<const QAbstractScrollArea*>(w->parentWidget());
    return area && area->viewport() == w;
}

QString named(const QWidget* w) {
    QString text;
    if (const auto* label = qobject_cast<const QLabel*>(w))
        text = label->text().left(40);
    else if (const auto* button = qobject_cast<const QAbstractButton*>(w))
        text = button->text();
    return QStringLiteral("%1 %2 \"%3\"")
        .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), text);
}

QLabel* labelStartingWith(const QWidget& root, const QString& start) {
    for (QLabel* label : root.findChildren<QLabel*>())
        if (label->text().startsWith(start))
            return label;
    return nullptr;
}

QCheckBox* typeBox(const QWidget& root, const QString& name) {
    for (QCheckBox* box : root.findChildren<QCheckBox*>())
        if (box->text() == name)
            return box;
    return nullptr;
}

// Everything wrong with how `label` is shown in `window`: its lines past its box, a parent (not a
// panel's viewport, which scrolls) that cuts it, and any other visible widget lying on it.
QStringList problemsOf(QLabel* label, QWidget* window, QWidget* page) {
    QStringList problems;
    const int needed = label->heightForWidth(label->width());
    if (needed > label->height())
        problems << QStringLiteral("its lines need %1 px at %2 px wide; its box is %3 px high")
                        .arg(needed)
                        .arg(label->width())
                        .arg(label->height());
    const QRect box = inWindow(label, window);
    for (QWidget* a = label->parentWidget(); a && a != window; a = a->parentWidget())
        if (!isScrollViewport(a) && !inWindow(a, window).contains(box))
            problems << QStringLiteral("cut by its parent %1 (%2 px high, the label's bottom %3 px below its "
                                       "top)")
                            .arg(named(a))
                            .arg(a->height())
                            .arg(label->mapTo(a, QPoint(0, label->height())).y());
    for (QWidget* other : page->findChildren<QWidget*>()) {
        if (other == label || !other->isVisible() || other->isAncestorOf(label) || label->isAncestorOf(other))
            continue;
        if (inWindow(other, window).adjusted(1, 1, -1, -1).intersects(box.adjusted(1, 1, -1, -1)))
            problems << QStringLiteral("%1 lies on it").arg(named(other));
    }
    return problems;
}

} // namespace

class TestBenchmarksProjector : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void fp16WarningIsWhole_data();
    void fp16WarningIsWhole();
    void precisionNoteIsWhole_data();
    void precisionNoteIsWhole();
    void throughputChartHasRoom_data();
    void throughputChartHasRoom();
    void notesReadOnAProjector_data();
    void notesReadOnAProjector();
    void recipeComparisonFitsTheViewport_data();
    void recipeComparisonFitsTheViewport();
    void cleanupTestCase();

private:
    /// The window at `size`, in or out of presentation mode (and dark or not), the Benchmarks page in
    /// front with fp16 ticked, its layouts settled; fails when the window refuses the size.
    void show(QSize size, bool presentation, bool dark);
    /// Fails unless `label`, scrolled into view, is whole in the window: its lines within its box, no
    /// parent cutting it, nothing on it, ink on its last line. Writes the window as `shotName`-TAG.png
    /// under NAPKIN_SCREENSHOT_DIR when set.
    void expectWhole(QLabel* label, const QString& shotName);

    std::unique_ptr<MainWindow> m_window;
    bool m_dark = false;
};

void TestBenchmarksProjector::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    m_window = std::make_unique<MainWindow>();
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestBenchmarksProjector::cleanupTestCase() {
    if (m_window && m_window->isPresentationMode())
        m_window->setPresentationMode(false);
    if (m_window && m_dark)
        m_window->setDarkPalette(false);
    m_window.reset();
}

void TestBenchmarksProjector::show(QSize size, bool presentation, bool dark) {
    MainWindow& w = *m_window;
    if (m_dark != dark) {
        w.setDarkPalette(dark);
        m_dark = dark;
    }
    if (w.isPresentationMode() != presentation)
        w.setPresentationMode(presentation);
    QCoreApplication::processEvents();
    // The offscreen screen is smaller than a projector: the size is given to the window in its normal
    // state, presentation mode's type and palette kept (as tst_layout does).
    w.setWindowState(Qt::WindowNoState);
    w.showNormal();
    w.pages()->setCurrentWidget(w.benchmarksPage());
    QCheckBox* fp16 = typeBox(*w.benchmarksPage(), QStringLiteral("fp16"));
    QVERIFY(fp16);
    fp16->setChecked(true);
    for (int i = 0; i < 3; ++i) {
        w.resize(size);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
    }
    QCOMPARE(w.size(), size);
}

void TestBenchmarksProjector::expectWhole(QLabel* label, const QString& shotName) {
    BenchmarksPage* page = m_window->benchmarksPage();
    // The page's panels scroll: the label is brought into their view, as a reader scrolls to it.
    for (QWidget* a = label->parentWidget(); a; a = a->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(a))
            area->ensureWidgetVisible(label);
    QCoreApplication::processEvents();
    if (const QByteArray dir = qgetenv("NAPKIN_SCREENSHOT_DIR"); !dir.isEmpty())
        m_window->grab().save(
            QStringLiteral("%1/%2-%3.png")
                .arg(QString::fromLocal8Bit(dir), shotName, QString::fromLatin1(QTest::currentDataTag())));
    const QStringList problems = problemsOf(label, m_window.get(), page);
    QVERIFY2(problems.isEmpty(), qPrintable(QLatin1Char('\n') + problems.join(QLatin1Char('\n'))));
    // What the picture shows: ink on its last line (not a box whose lines were clipped away).
    const QImage drawn = label->grab().toImage();
    const QColor paper = label->palette().color(label->backgroundRole());
    const int line = label->fontMetrics().lineSpacing();
    const int textBottom = label->contentsRect().top() + label->heightForWidth(label->width());
    const QRect lastLine(0, std::max(0, textBottom - line), drawn.width(), line);
    QVERIFY2(strongestEdge(drawn, lastLine, paper) >= 3,
             qPrintable(QStringLiteral("nothing drawn in its last line (y %1 to %2 of %3)")
                            .arg(lastLine.top())
                            .arg(lastLine.bottom())
                            .arg(drawn.height())));
}

void TestBenchmarksProjector::fp16WarningIsWhole_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presentation");
    for (const bool presentation : {false, true})
        for (const QSize& s : {QSize(1024, 768), QSize(1280, 720)})
            QTest::addRow("%dx%d%s", s.width(), s.height(), presentation ? "-presentation" : "")
                << s << presentation;
}

void TestBenchmarksProjector::fp16WarningIsWhole() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    show(size, presentation, false);
    if (QTest::currentTestFailed())
        return;
    BenchmarksPage* page = m_window->benchmarksPage();
    QLabel* warning = labelStartingWith(*page->sweepPanel(), QStringLiteral("fp16 on the CPU"));
    QVERIFY(warning);
    QVERIFY(warning->isVisible());
    expectWhole(warning, QStringLiteral("benchmarks-fp16"));
}

void TestBenchmarksProjector::precisionNoteIsWhole_data() {
    fp16WarningIsWhole_data();
}

// The training controls' note on the recipes the trainer refuses: the eigen CPU backend trains fp32 only,
// so choosing it shows why mixed-bf16 is greyed out, on several lines in the 340-pixel column. In a form
// layout's spanning row it got the height of its lines at the label's natural width, and was cut.
void TestBenchmarksProjector::precisionNoteIsWhole() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    BenchmarksPage* page = m_window->benchmarksPage();
    auto* backend = page->findChild<QComboBox*>(QStringLiteral("cpuBackend"));
    QVERIFY(backend);
    const int eigen = backend->findData(QStringLiteral("eigen"));
    if (eigen < 0 || !(backend->model()->flags(backend->model()->index(eigen, 0)) & Qt::ItemIsEnabled))
        QSKIP("this build has no eigen CPU backend to refuse mixed-bf16");
    const int before = backend->currentIndex();
    const auto restore = qScopeGuard([&] { backend->setCurrentIndex(before); });
    show(size, presentation, false);
    if (QTest::currentTestFailed())
        return;
    backend->setCurrentIndex(eigen);
    // The note's lines reach the scroll area a layout level per turn of the event loop.
    for (int i = 0; i < 10; ++i)
        QCoreApplication::processEvents();
    auto* note = page->findChild<QLabel*>(QStringLiteral("precisionNote"));
    QVERIFY(note);
    QVERIFY2(note->isVisible() && note->text().contains(QStringLiteral("mixed-bf16")),
             qPrintable(note->text()));
    expectWhole(note, QStringLiteral("benchmarks-precision"));
}

void TestBenchmarksProjector::throughputChartHasRoom_data() {
    fp16WarningIsWhole_data();
}

// The throughput chart beside or over the results table: at 1280×720 in presentation type the chart was
// squeezed to ~300 px beside an empty table that took half the row, its x title broken onto four lines.
// Each axis title takes at most two lines, the axes keep a plot's width, the chart and the table do not
// overlap and neither is cut at the side of the panels' viewport (it scrolls down, never sideways).
void TestBenchmarksProjector::throughputChartHasRoom() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    show(size, presentation, false);
    if (QTest::currentTestFailed())
        return;
    BenchmarksPage* page = m_window->benchmarksPage();
    ThroughputChart* chart = page->sweepPanel()->chart();
    auto* table = page->sweepPanel()->findChild<QTableWidget*>(QStringLiteral("results"));
    QVERIFY(chart && table);
    QScrollArea* panels = nullptr;
    for (QWidget* a = chart->parentWidget(); a && !panels; a = a->parentWidget())
        panels = qobject_cast<QScrollArea*>(a);
    QVERIFY(panels);
    // Brought into view as a reader scrolls down to it; the panels have no sideways scroll bar, so what is
    // wider than their viewport is cut at its right (at 1024×768 the column was 40 px wider).
    panels->ensureWidgetVisible(chart);
    panels->horizontalScrollBar()->setValue(0);
    // A title refitted to new room queues one more replot; a few turns settle it.
    for (int i = 0; i < 4; ++i) {
        chart->replotNow();
        QCoreApplication::processEvents();
    }
    if (const QByteArray dir = qgetenv("NAPKIN_SCREENSHOT_DIR"); !dir.isEmpty())
        m_window->grab().save(
            QStringLiteral("%1/benchmarks-chart-%2.png")
                .arg(QString::fromLocal8Bit(dir), QString::fromLatin1(QTest::currentDataTag())));
    QStringList problems;
    const ChartLayout drawn = chart->layoutGeometry();
    for (const QString& title : drawn.axisTitles)
        if (title.count(QLatin1Char('\n')) > 1)
            problems << QStringLiteral("axis title on %1 lines: %2")
                            .arg(title.count(QLatin1Char('\n')) + 1)
                            .arg(QString(title).replace(QLatin1Char('\n'), QLatin1Char('|')));
    constexpr int kLeastPlotWidth = 240; // px: five powers of two along the log axis, labels apart
    if (drawn.axisRect.width() < kLeastPlotWidth)
        problems << QStringLiteral("the axes are %1 px wide").arg(drawn.axisRect.width());
    if (!drawn.cutText.isEmpty())
        problems << QStringLiteral("drawn cut: %1").arg(drawn.cutText.join(QStringLiteral(", ")));
    const QRect chartBox = inWindow(chart, m_window.get());
    const QRect tableBox = inWindow(table, m_window.get());
    if (chartBox.intersects(tableBox))
        problems << QStringLiteral("the chart %1,%2 %3×%4 and the table %5,%6 %7×%8 overlap")
                        .arg(chartBox.x())
                        .arg(chartBox.y())
                        .arg(chartBox.width())
                        .arg(chartBox.height())
                        .arg(tableBox.x())
                        .arg(tableBox.y())
                        .arg(tableBox.width())
                        .arg(tableBox.height());
    if (const int wider = panels->horizontalScrollBar()->maximum(); wider > 0)
        problems << QStringLiteral("the panels are %1 px wider than their viewport").arg(wider);
    // Side by side, the room beyond the minimums goes to the chart: an empty table took half the row.
    if (chartBox.top() < tableBox.bottom() && tableBox.top() < chartBox.bottom() &&
        tableBox.width() > chartBox.width())
        problems << QStringLiteral("the table beside the chart is wider (%1 px) than the chart (%2 px)")
                        .arg(tableBox.width())
                        .arg(chartBox.width());
    // Under it, tall enough for its header and a few rows.
    const int rows = table->horizontalHeader()->height() + 3 * table->verticalHeader()->defaultSectionSize();
    if (table->viewport()->height() + table->horizontalHeader()->height() < rows)
        problems << QStringLiteral("the table is %1 px high: fewer than 3 rows under its header")
                        .arg(table->height());
    const QRect view = inWindow(panels->viewport(), m_window.get());
    for (const auto& [name, box] :
         {std::pair{QStringLiteral("chart"), chartBox}, {QStringLiteral("table"), tableBox}})
        if (box.left() < view.left() || box.right() > view.right())
            problems << QStringLiteral("the %1 (x %2 to %3) is cut by the viewport (x %4 to %5)")
                            .arg(name)
                            .arg(box.left())
                            .arg(box.right())
                            .arg(view.left())
                            .arg(view.right());
    QVERIFY2(problems.isEmpty(), qPrintable(QLatin1Char('\n') + problems.join(QLatin1Char('\n'))));
}

void TestBenchmarksProjector::notesReadOnAProjector_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light presentation") << false;
    QTest::newRow("dark presentation") << true;
}

void TestBenchmarksProjector::notesReadOnAProjector() {
    QFETCH(bool, dark);
    show(QSize(1280, 900), true, dark); // the type and colours are judged; the size is the layout's test
    if (QTest::currentTestFailed())
        return;
    BenchmarksPage* page = m_window->benchmarksPage();
    // On a CPU without a GPU, tf32 and fp8 are refused (the note under the types); fp16 is ticked (its
    // warning). The refused recipes' note shows only where a recipe is refused (not on every CPU).
    QList<QLabel*> notes{page->findChild<QLabel*>(QStringLiteral("unsupportedDtypes")),
                         labelStartingWith(*page, QStringLiteral("fp16 on the CPU")),
                         page->findChild<QLabel*>(QStringLiteral("precisionNote"))};
    QVERIFY(notes[0] && notes[0]->isVisible());
    QVERIFY(notes[1] && notes[1]->isVisible());
    QVERIFY(notes[2]);
    // The presentation type: a label beside the notes that sets no font of its own ("Types").
    const QLabel* body = labelStartingWith(*page->sweepPanel(), QStringLiteral("Types"));
    QVERIFY(body);
    const int bodyPixels = QFontInfo(body->font()).pixelSize();
    QVERIFY2(bodyPixels > QFontInfo(QApplication::font()).pixelSize(), "presentation mode's type is not on");
    for (QLabel* note : notes) {
        if (!note->isVisible() && note->text().isEmpty())
            continue;
        const int pixels = QFontInfo(note->font()).pixelSize();
        QVERIFY2(pixels >= bodyPixels, qPrintable(QStringLiteral("%1: %2 px text beside %3 px body text")
                                                      .arg(named(note))
                                                      .arg(pixels)
                                                      .arg(bodyPixels)));
        if (!note->isVisible())
            continue;
        const QImage drawn = note->grab().toImage();
        const QColor paper = note->palette().color(note->backgroundRole());
        const double ink = strongestEdge(drawn, drawn.rect(), paper);
        QVERIFY2(
            ink >= 4.5,
            qPrintable(
                QStringLiteral("%1: %2:1 on %3").arg(named(note)).arg(ink, 0, 'f', 2).arg(paper.name())));
    }
}

void TestBenchmarksProjector::recipeComparisonFitsTheViewport_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presentation");
    for (const QSize& s : {QSize(1024, 768), QSize(1280, 720)})
        QTest::addRow("%dx%d-presentation", s.width(), s.height()) << s << true;
}

// A finished recipe comparison in presentation type: its table (the MFU column names each peak, the
// refused rows carry the backend's reasons) and its chart stay inside the panels' viewport, which scrolls
// down, never sideways. With one-line headers beside the chart the table alone asked for 1029 px.
void TestBenchmarksProjector::recipeComparisonFitsTheViewport() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    show(size, presentation, false);
    if (QTest::currentTestFailed())
        return;
    BenchmarksPage* page = m_window->benchmarksPage();
    for (const auto& [name, value] : {std::pair{"dim", 16}, {"layers", 2}, {"batch", 8}, {"steps", 4}})
        page->findChild<QSpinBox*>(QString::fromLatin1(name))->setValue(value);
    QPushButton* compare = page->findChild<QPushButton*>(QStringLiteral("compareRecipes"));
    QVERIFY(compare);
    compare->click();
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 60000);
    RecipeComparisonPanel* panel = page->recipePanel();
    QVERIFY(panel->comparison() && !panel->comparison()->runs.empty());
    for (int i = 0; i < 10; ++i) // the table's columns are fitted a turn after its rows land
        QCoreApplication::processEvents();
    QScrollArea* panels = nullptr;
    for (QWidget* a = panel->parentWidget(); a && !panels; a = a->parentWidget())
        panels = qobject_cast<QScrollArea*>(a);
    QVERIFY(panels);
    panels->ensureWidgetVisible(panel->table());
    QCoreApplication::processEvents();
    QCOMPARE(panels->horizontalScrollBar()->maximum(), 0);
    const QRect view = inWindow(panels->viewport(), m_window.get());
    for (QWidget* w : {static_cast<QWidget*>(panel->table()), static_cast<QWidget*>(panel->chart())}) {
        const QRect box = inWindow(w, m_window.get());
        QVERIFY2(box.left() >= view.left() && box.right() <= view.right(),
                 qPrintable(QStringLiteral("%1 (x %2 to %3) is cut by the viewport (x %4 to %5)")
                                .arg(named(w))
                                .arg(box.left())
                                .arg(box.right())
                                .arg(view.left())
                                .arg(view.right())));
    }
    for (int i = 0; i < 3; ++i) { // ticks and titles fitted to the laid-out axes take a replot or two
        panel->chart()->replotNow();
        QCoreApplication::processEvents();
    }
    if (const QByteArray dir = qgetenv("NAPKIN_SCREENSHOT_DIR"); !dir.isEmpty())
        m_window->grab().save(
            QStringLiteral("%1/benchmarks-recipes-%2.png")
                .arg(QString::fromLocal8Bit(dir), QString::fromLatin1(QTest::currentDataTag())));
    const QStringList cut = panel->chart()->layoutGeometry().cutText;
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral(" | "))));
    // As tall as its plot, legend row included, asks: an explicit minimum height once squeezed it below
    // that, and the table covered the legend's names.
    QVERIFY2(panel->chart()->height() >= panel->chart()->minimumSizeHint().height(),
             qPrintable(QStringLiteral("the chart is %1 px high; its plot and legend need %2")
                            .arg(panel->chart()->height())
                            .arg(panel->chart()->minimumSizeHint().height())));
}

QTEST_MAIN(TestBenchmarksProjector)
#include "tst_benchmarks_projector.moc"
