// SPDX-License-Identifier: GPL-3.0-or-later
// The answers grid and the flowing row of charts at a projector's width: the grid puts the formula
// beside its value while there is room, under it when not, and the value under its title when even
// that is too wide, so that its panel never scrolls sideways (the Accounting answers did, 755 px of
// content in 487, in presentation mode at 1024×768); the row stacks its panes when they no longer fit
// side by side. The arrangement holds while a slider is dragged (it flipped between stacked and three
// columns on every tick of a drag, the Accounting page at 1280×720) and as values grow and shrink.
#include "widgets/controls/answers_grid.h"
#include "widgets/controls/flow_splitter.h"

#include <QEnterEvent>
#include <QGuiApplication>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QtTest>

class TestAnswersGrid : public QObject {
    Q_OBJECT
private slots:
    void arrangementFollowsTheWidth();
    void panelNeverScrollsSideways();
    void rowStacksWhenNarrow();
    void selectableUnderThePointer();
    void arrangementHoldsWhileDragging();
    void arrangementHoldsAsValuesShrink();
};

namespace {

void fill(AnswersGrid& grid) {
    grid.setFormulaBesideWhenRoom(true);
    grid.addRow(QStringLiteral("fits"), QStringLiteral("Fits on the GPU"));
    grid.addRow(QStringLiteral("memory"), QStringLiteral("Memory per GPU (sum)"));
    grid.setRow(QStringLiteral("fits"), QStringLiteral("yes — peak 1.094 GB of 80 GB"),
                QStringLiteral("peak 1.09e9 B ≤ 8.00e10 B\nH100-SXM memory = 8.00e10 B (80 GB)"));
    grid.setRow(QStringLiteral("memory"), QStringLiteral("1.094 GB"),
                QStringLiteral("1.37e8 + 1.37e8 + 2.73e8 + 5.47e8 + 0 = 1.09e9 B"));
}

} // namespace

void TestAnswersGrid::arrangementFollowsTheWidth() {
    AnswersGrid grid;
    fill(grid);
    QCOMPARE(grid.fitting(2000), AnswersGrid::Arrangement::formulaBeside);
    QCOMPARE(grid.fitting(60), AnswersGrid::Arrangement::stacked);
    const auto middle = grid.fitting(
        QFontMetrics(grid.font())
            .horizontalAdvance(QStringLiteral("Memory per GPU (sum) yes — peak 1.094 GB of 80 GB")) +
        40);
    QCOMPARE(middle, AnswersGrid::Arrangement::formulaBelow);
    QCOMPARE(grid.valueText(QStringLiteral("memory")), QStringLiteral("1.094 GB"));
    QVERIFY(grid.formulaText(QStringLiteral("fits")).startsWith(QStringLiteral("peak 1.09e9 B")));
    QVERIFY(grid.findChild<QLabel*>(QStringLiteral("value_fits")));
}

void TestAnswersGrid::panelNeverScrollsSideways() {
    QScrollArea area;
    auto* grid = new AnswersGrid;
    fill(*grid);
    QFont big = area.font();
    big.setPointSizeF(big.pointSizeF() * 1.45); // presentation mode's type
    area.setFont(big);
    area.setWidget(grid);
    area.setWidgetResizable(true);
    area.resize(260, 400);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QCoreApplication::processEvents();
    QVERIFY2(!area.horizontalScrollBar()->isVisible(),
             qPrintable(
                 QStringLiteral("%1 px of content in %2").arg(grid->width()).arg(area.viewport()->width())));
    QCOMPARE(grid->arrangement(), AnswersGrid::Arrangement::stacked);
    area.resize(1400, 400);
    QCoreApplication::processEvents();
    QCOMPARE(grid->arrangement(), AnswersGrid::Arrangement::formulaBeside);
}

void TestAnswersGrid::rowStacksWhenNarrow() {
    QWidget window; // a child, as on a page: a top-level splitter takes its side-by-side width as minimum
    auto* row = new FlowSplitter(&window);
    auto* layout = new QVBoxLayout(&window);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(row);
    for (int i = 0; i < 2; ++i) {
        auto* pane = new QWidget;
        pane->setMinimumWidth(300);
        row->addWidget(pane);
    }
    QCOMPARE(row->minimumSizeHint().width(), 300); // as narrow as one pane: it stacks, not scrolls
    window.resize(700, 400);
    window.show();
    QTRY_COMPARE(row->orientation(), Qt::Horizontal);
    window.resize(500, 400);
    QTRY_COMPARE(row->orientation(), Qt::Vertical);
    window.resize(row->sideBySideWidth(), 400);
    QTRY_COMPARE(row->orientation(), Qt::Horizontal);
}

// A selectable QLabel lays its text out as a document for every size query: during a slider drag (the
// pointer on the slider) the answers are plain labels; over the grid, and while one has the focus (a
// selection about to be copied), they take the mouse's selection.
void TestAnswersGrid::selectableUnderThePointer() {
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* grid = new AnswersGrid;
    fill(*grid);
    auto* elsewhere = new QLabel(QStringLiteral("a slider"));
    elsewhere->setFocusPolicy(Qt::StrongFocus);
    layout->addWidget(grid);
    layout->addWidget(elsewhere);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* formula = grid->findChild<QLabel*>(QStringLiteral("formula_memory"));
    QVERIFY(formula);
    QVERIFY(!grid->isSelectable());
    QCOMPARE(formula->textInteractionFlags(), Qt::NoTextInteraction);

    QEnterEvent enter(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5));
    QCoreApplication::sendEvent(grid, &enter);
    QVERIFY(grid->isSelectable());
    QCOMPARE(formula->textInteractionFlags(), Qt::TextSelectableByMouse);

    formula->setFocus(); // a click selected some of it
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(grid, &leave);
    QVERIFY2(grid->isSelectable(), "the pointer left, but the selection has the focus");

    elsewhere->setFocus(); // the selection was copied; the user went back to the sliders
    QTRY_VERIFY(!grid->isSelectable());
    QCOMPARE(formula->textInteractionFlags(), Qt::NoTextInteraction);
}

namespace {

// A window holding a grid wide enough for its formulas beside the values as fill() sets them, and a
// slider-like widget to press the mouse on.
struct GridWindow {
    QWidget window;
    AnswersGrid* grid = new AnswersGrid;
    QLabel* slider = new QLabel(QStringLiteral("a slider"));
    GridWindow() {
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(grid);
        layout->addWidget(slider);
        fill(*grid);
        const int beside = QFontMetrics(grid->font()).horizontalAdvance(QStringLiteral("M")) * 70 + 60;
        window.resize(beside, 400);
        window.show();
    }
    // Values as long as a drag can make them: the title and value alone then need more than the width.
    void setLongValues() const {
        const QString longValue = QStringLiteral("no — peak 123,456.789 GB at backward layer 96 of 80 GB; ")
                                      .repeated(2);
        grid->setRow(QStringLiteral("fits"), longValue, QStringLiteral("x"));
    }
    void setShortValues() const {
        grid->setRow(QStringLiteral("fits"), QStringLiteral("yes"), QStringLiteral("x"));
    }
};

} // namespace

void TestAnswersGrid::arrangementHoldsWhileDragging() {
    GridWindow w;
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    QTRY_COMPARE(w.grid->arrangement(), AnswersGrid::Arrangement::formulaBeside);
    QTest::mousePress(w.slider, Qt::LeftButton);
    QCOMPARE(QGuiApplication::mouseButtons(), Qt::LeftButton);
    for (int tick = 0; tick < 4; ++tick) {
        (tick % 2 ? w.setShortValues() : w.setLongValues());
        QCoreApplication::processEvents();
        QTest::qWait(60);
        QCOMPARE(w.grid->arrangement(), AnswersGrid::Arrangement::formulaBeside);
    }
    w.setLongValues();
    QCoreApplication::processEvents();
    QTest::mouseRelease(w.slider, Qt::LeftButton);
    // Released: the long value no longer fits beside its formula, and the grid says so once.
    QTRY_VERIFY(w.grid->arrangement() != AnswersGrid::Arrangement::formulaBeside);
}

void TestAnswersGrid::arrangementHoldsAsValuesShrink() {
    GridWindow w;
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    QTRY_COMPARE(w.grid->arrangement(), AnswersGrid::Arrangement::formulaBeside);
    w.setLongValues();
    QTRY_VERIFY(w.grid->arrangement() != AnswersGrid::Arrangement::formulaBeside);
    const AnswersGrid::Arrangement narrower = w.grid->arrangement();
    for (int step = 0; step < 3; ++step) { // a value stepped with the keys, shorter then longer again
        w.setShortValues();
        QCoreApplication::processEvents();
        QCOMPARE(w.grid->arrangement(), narrower);
        w.setLongValues();
        QCoreApplication::processEvents();
        QCOMPARE(w.grid->arrangement(), narrower);
    }
    w.setShortValues();
    w.window.resize(w.window.width() + 40, w.window.height()); // a new width: the values now decide
    QTRY_COMPARE(w.grid->arrangement(), AnswersGrid::Arrangement::formulaBeside);
}

QTEST_MAIN(TestAnswersGrid)
#include "tst_answers_grid.moc"
