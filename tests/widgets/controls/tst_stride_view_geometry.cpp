// SPDX-License-Identifier: GPL-3.0-or-later
// Stride view layout and hit-testing, without a window: the cell under the mouse must map to the
// storage cell PyTorch's offset formula names.
#include "engine/tensor/tensor_expression.h"
#include "widgets/controls/stride_view_geometry.h"

#include <QtTest>

using napkin::TensorLayout;

class TestStrideViewGeometry : public QObject {
    Q_OBJECT
private slots:
    void hoverMapsToStorageCell_data();
    void hoverMapsToStorageCell();
    void slicesBeyondTwoDimensions();
    void outsideCellsIsNothing();
    void longStorageWrapsAndIsCut();
    void copyGetsItsOwnStrip();
};

namespace {
TensorLayout lastLayout(const char* expr, std::vector<int64_t> shape) {
    return napkin::evaluateTensorExpression(expr, shape, 4).steps.back().layout;
}
} // namespace

void TestStrideViewGeometry::hoverMapsToStorageCell_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<int>("cellIndex"); // row-major position in the view
    QTest::addColumn<qlonglong>("offset");
    QTest::newRow("4x4 (1,2) → 6") << "x"
                                   << "4,4" << 6 << 6LL;
    QTest::newRow("transposed 2x3, (0,1) → 3") << "x.t()"
                                               << "2,3" << 1 << 3LL;
    QTest::newRow("column x[:,1], (1,) → 4") << "x[:, 1]"
                                             << "2,3" << 1 << 4LL;
    QTest::newRow("expanded (3,4), (2,3) → 2") << "x.expand(3,4)"
                                               << "3,1" << 11 << 2LL;
}

void TestStrideViewGeometry::hoverMapsToStorageCell() {
    QFETCH(QString, expr);
    QFETCH(QString, shape);
    QFETCH(int, cellIndex);
    QFETCH(qlonglong, offset);
    std::vector<int64_t> sizes;
    for (const QString& s : shape.split(','))
        sizes.push_back(s.toLongLong());
    const TensorLayout t = lastLayout(expr.toUtf8().constData(), sizes);
    const auto g = StrideViewGeometry::compute({{0, t.storageElements, t.storageBytes(), 0, {}}}, t, 600);
    QCOMPARE(g.gridCells.size(), static_cast<std::size_t>(t.numel()));
    const QPointF centre = g.gridCells[cellIndex].rect.center();
    const auto hit = g.gridCellAt(centre);
    QVERIFY(hit);
    QCOMPARE(*hit, static_cast<std::size_t>(cellIndex));
    QCOMPARE(g.gridCells[*hit].storageOffset, offset);
    const auto strip = g.stripCellRect(0, offset);
    QVERIFY(strip);
    // storage cells are laid out left to right from the margin
    QCOMPARE(strip->left(), StrideViewGeometry::kMargin + g.cell * static_cast<double>(offset));
}

void TestStrideViewGeometry::slicesBeyondTwoDimensions() {
    const TensorLayout t = lastLayout("x.view(2,4,2,3).transpose(1,2)", {2, 4, 6});
    const auto g = StrideViewGeometry::compute({{0, 48, 192, 0, {}}}, t, 1200);
    QCOMPARE(g.slices.size(), std::size_t{4}); // 2·2 slices of 4×3
    QCOMPARE(g.slices[1].label, QStringLiteral("[0, 1, :, :]"));
    QCOMPARE(g.slices[0].rect.width(), 3 * g.cell);
    QCOMPARE(g.slices[0].rect.height(), 4 * g.cell);
    // element (0,1,2,0) is row 2, column 0 of the second slice: 0·24 + 1·3 + 2·6 + 0·1 = 15
    const auto hit = g.gridCellAt(g.slices[1].rect.topLeft() + QPointF(g.cell / 2, 2.5 * g.cell));
    QVERIFY(hit);
    QCOMPARE(g.gridCells[*hit].index, (std::vector<int64_t>{0, 1, 2, 0}));
    QCOMPARE(g.gridCells[*hit].storageOffset, 15LL);
    // slices do not overlap
    QVERIFY(!g.slices[0].rect.intersects(g.slices[1].rect));
}

void TestStrideViewGeometry::outsideCellsIsNothing() {
    const TensorLayout t = lastLayout("x", {2, 3});
    const auto g = StrideViewGeometry::compute({{0, 6, 24, 0, {}}}, t, 600);
    QVERIFY(!g.gridCellAt(QPointF(1, 1)));
    QVERIFY(!g.gridCellAt(QPointF(599, g.size.height() - 1)));
    QVERIFY(!g.stripCellRect(0, 6));
    QVERIFY(!g.stripCellRect(1, 0));
}

void TestStrideViewGeometry::longStorageWrapsAndIsCut() {
    const TensorLayout t = lastLayout("x", {40, 40});
    const auto g = StrideViewGeometry::compute({{0, 1600, 6400, 0, {}}}, t, 400);
    QCOMPARE(g.cell, StrideViewGeometry::kMinCell);
    const auto& strip = g.strips.front();
    QCOMPARE(strip.shownElements, StrideViewGeometry::kMaxStripCells);
    QVERIFY(strip.cellsPerRow < 40);
    const auto wrapped = g.stripCellRect(0, strip.cellsPerRow);
    QVERIFY(wrapped);
    QCOMPARE(wrapped->left(), StrideViewGeometry::kMargin);
    QCOMPARE(wrapped->top(), strip.cellsRect.top() + g.cell);
    QVERIFY(g.gridCutOff); // 1600 > 1024 elements: no grid
    QVERIFY(g.gridCells.empty());
}

void TestStrideViewGeometry::copyGetsItsOwnStrip() {
    const auto e = napkin::evaluateTensorExpression("x.t().contiguous()", {2, 3}, 4);
    const TensorLayout& t = e.steps.back().layout;
    const auto g = StrideViewGeometry::compute({{0, 6, 24, 0, {}}, {1, 6, 24, 2, {}}}, t, 600);
    QCOMPARE(g.strips.size(), std::size_t{2});
    QVERIFY(g.strips[1].cellsRect.top() > g.strips[0].cellsRect.bottom());
    QVERIFY(g.gridLabelRect.top() > g.strips[1].cellsRect.bottom());
    QCOMPARE(g.stripCellRect(1, 0)->top(), g.strips[1].cellsRect.top());
}

QTEST_MAIN(TestStrideViewGeometry)
#include "tst_stride_view_geometry.moc"
