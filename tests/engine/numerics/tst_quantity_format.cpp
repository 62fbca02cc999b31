// SPDX-License-Identifier: GPL-3.0-or-later
// Formatting numbers for formulas and for people.
#include "engine/numerics/quantity_format.h"

#include <QtTest>

#include <string>
#include <utility>
#include <vector>

using namespace napkin;

class TestQuantityFormat : public QObject {
    Q_OBJECT
private slots:
    void numbers_data();
    void numbers();
    void recentNumbersAreSpelledTheSameAgain();
    void bytes_data();
    void bytes();
    void flops();
    void exact();
};

void TestQuantityFormat::exact() {
    QCOMPARE(QString::fromStdString(formatExact(124439808)), QString("124439808"));
    QCOMPARE(QString::fromStdString(formatExact(175e9)), QString("175000000000"));
    QCOMPARE(QString::fromStdString(formatExact(0.5)), QString("0.5"));
}

void TestQuantityFormat::numbers_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("small whole") << 496.0 << "496";
    QTest::newRow("large") << 6.3e24 << "6.30e24";
    QTest::newRow("70e9") << 70e9 << "7.00e10";
    QTest::newRow("fraction") << 143.94114 << "143.9";
    QTest::newRow("tiny") << 1e-8 << "1.00e-8";
    QTest::newRow("negative large") << -2.5e7 << "-2.50e7";
    QTest::newRow("half") << 0.5 << "0.5";
    QTest::newRow("fraction above 1e4") << 147396.4 << "1.47e5";
    QTest::newRow("fraction rounding up to 1e4") << 9999.5 << "1.00e4";
    QTest::newRow("fraction below 1e4") << 1234.56 << "1235";
    QTest::newRow("whole above 1e4") << 147396.0 << "147396";
    // Whole numbers below a million take the integer conversion: the same text as "%.0f".
    QTest::newRow("largest whole below 1e6") << 999999.0 << "999999";
    QTest::newRow("one million") << 1e6 << "1.00e6";
    QTest::newRow("negative whole") << -768.0 << "-768";
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("negative zero") << -0.0 << "-0";
    // Whole numbers from 1e6 take an integer rounding; these rows are what "%.2e" prints (half to even
    // at an exact tie, carried into the exponent at 9.995).
    QTest::newRow("GPT-2 small parameters") << 124439808.0 << "1.24e8";
    QTest::newRow("exact tie rounds to even, up") << 1235000.0 << "1.24e6";
    QTest::newRow("exact tie rounds to even, down") << 1225000.0 << "1.22e6";
    QTest::newRow("just above a tie") << 1225001.0 << "1.23e6";
    QTest::newRow("carry into the exponent") << 9995000.0 << "1.00e7";
    QTest::newRow("negative whole above 1e6") << -124439808.0 << "-1.24e8";
    QTest::newRow("whole near 2^63") << 9.1e18 << "9.10e18";
}

void TestQuantityFormat::numbers() {
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(formatNumber(value)), text);
}

// formatNumber() keeps the last numbers it spelled (by bit pattern) and hands back their text: asked again,
// in any order and after other numbers took their slots, each value reads as when first spelled; 0 and −0,
// equal as doubles, keep their own texts.
void TestQuantityFormat::recentNumbersAreSpelledTheSameAgain() {
    const std::vector<std::pair<double, std::string>> rows{
        {0.0, "0"},          {-0.0, "-0"},      {496.0, "496"}, {143.94114, "143.9"}, {124439808.0, "1.24e8"},
        {6.3e24, "6.30e24"}, {1e-8, "1.00e-8"}, {0.5, "0.5"}};
    for (int round = 0; round < 3; ++round) {
        for (const auto& [value, text] : rows)
            QCOMPARE(formatNumber(value), text);
        for (int i = 0; i < 1000; ++i) // other numbers, enough to take every slot
            (void)formatNumber(1e6 + 12345.678 * i);
        for (auto it = rows.rbegin(); it != rows.rend(); ++it)
            QCOMPARE(formatNumber(it->first), it->second);
    }
    for (int i = 0; i < 1000; ++i) { // a value after its neighbours, each spelled afresh and again
        const double v = 1e6 + 12345.678 * i;
        const std::string first = formatNumber(v);
        QCOMPARE(formatNumber(v), first);
        QVERIFY(first.find('e') != std::string::npos);
    }
}

void TestQuantityFormat::bytes_data() {
    QTest::addColumn<double>("bytes");
    QTest::addColumn<bool>("binary");
    QTest::addColumn<QString>("text");
    QTest::newRow("4×8 fp32 tensor") << 128.0 << false << "128 B";
    QTest::newRow("GPT-3 FFN matrix: 2304 MiB = 2.25 GiB") << 12288.0 * 4 * 12288 * 4 << true << "2.25 GiB";
    QTest::newRow("2304 MiB shown as MiB below 1 GiB") << 1023.0 * 1024 * 1024 << true << "1023 MiB";
    QTest::newRow("H100 80 GB") << 80e9 << false << "80 GB";
    QTest::newRow("80 GB in GiB") << 80e9 << true << "74.51 GiB";
}

void TestQuantityFormat::bytes() {
    QFETCH(double, bytes);
    QFETCH(bool, binary);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(formatBytes(bytes, binary ? ByteUnits::binary : ByteUnits::decimal)),
             text);
}

void TestQuantityFormat::flops() {
    QCOMPARE(QString::fromStdString(formatFlops(989.4e12, true)), QString("989.4 TFLOP/s"));
    QCOMPARE(QString::fromStdString(formatFlops(432)), QString("432 FLOPs"));
    QCOMPARE(QString::fromStdString(formatFlops(6.3e24)), QString("6.30e24 FLOPs"));
}

QTEST_APPLESS_MAIN(TestQuantityFormat)
#include "tst_quantity_format.moc"
