// SPDX-License-Identifier: GPL-3.0-or-later
// BitFieldView's cell layout and hit-testing, without a window.
#include "widgets/controls/bit_field_geometry.h"

#include <QtTest>

class TestBitFieldGeometry : public QObject {
    Q_OBJECT
private slots:
    void layout_data();
    void layout();
    void gapsHitNothing();
};

void TestBitFieldGeometry::layout_data() {
    QTest::addColumn<int>("exponentBits");
    QTest::addColumn<int>("mantissaBits");
    QTest::newRow("fp32") << 8 << 23;
    QTest::newRow("fp16") << 5 << 10;
    QTest::newRow("bf16") << 8 << 7;
    QTest::newRow("fp8 e4m3") << 4 << 3;
    QTest::newRow("fp8 e5m2") << 5 << 2;
}

void TestBitFieldGeometry::layout() {
    QFETCH(int, exponentBits);
    QFETCH(int, mantissaBits);
    const QSizeF size(400, 24);
    const BitFieldGeometry g = BitFieldGeometry::layout(exponentBits, mantissaBits, size);
    const int total = 1 + exponentBits + mantissaBits;
    QCOMPARE(int(g.cells.size()), total);
    QCOMPARE(g.cells.front().bit, total - 1); // the sign is the top bit, drawn first
    QCOMPARE(g.cells.front().part, BitFieldGeometry::Part::sign);
    QCOMPARE(g.cells.back().bit, 0);
    QCOMPARE(g.cells.back().part, BitFieldGeometry::Part::mantissa);
    int exponents = 0, mantissas = 0;
    for (std::size_t i = 0; i < g.cells.size(); ++i) {
        const BitFieldGeometry::Cell& cell = g.cells[i];
        QCOMPARE(g.bitAt(cell.rect.center()), cell.bit); // every cell is hit at its centre
        QCOMPARE(g.cellFor(cell.bit), &cell);
        QVERIFY(cell.rect.right() <= size.width() + 1e-9);
        if (i > 0)
            QVERIFY(cell.rect.left() > g.cells[i - 1].rect.right()); // left to right, no overlap
        exponents += cell.part == BitFieldGeometry::Part::exponent;
        mantissas += cell.part == BitFieldGeometry::Part::mantissa;
    }
    QCOMPARE(exponents, exponentBits);
    QCOMPARE(mantissas, mantissaBits);
    // the exponent's lowest bit sits right before the mantissa: bit index mantissaBits
    QCOMPARE(g.cells[std::size_t(exponentBits)].bit, mantissaBits);
    QCOMPARE(g.cells[std::size_t(exponentBits)].part, BitFieldGeometry::Part::exponent);
    // with a cap, cells keep their width and the row stays at the left
    const BitFieldGeometry capped = BitFieldGeometry::layout(exponentBits, mantissaBits, size, 6.0, 10.0);
    QCOMPARE(capped.cells.front().rect.width(),
             g.cells.front().rect.width() > 10 ? 10.0 - 10.0 / 6 : g.cells.front().rect.width());
    QVERIFY(capped.cells.back().rect.right() <= total * 10.0 + 12.0 + 1e-9);
}

void TestBitFieldGeometry::gapsHitNothing() {
    const BitFieldGeometry g = BitFieldGeometry::layout(5, 10, QSizeF(340, 20), 10);
    const QRectF sign = g.cells[0].rect, exponent = g.cells[1].rect;
    QCOMPARE(g.bitAt(QPointF((sign.right() + exponent.left()) / 2, 10)), -1); // the group gap
    QCOMPARE(g.bitAt(QPointF(-1, 10)), -1);
    QCOMPARE(g.bitAt(QPointF(sign.center().x(), 25)), -1); // below the row
    QVERIFY(exponent.left() - sign.right() >= 10);
}

QTEST_APPLESS_MAIN(TestBitFieldGeometry)
#include "tst_bit_field_geometry.moc"
