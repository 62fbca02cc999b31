// SPDX-License-Identifier: GPL-3.0-or-later
// The numbers people type: "70B", "15T", "1.5e9".
#include "engine/numerics/number_parse.h"

#include <QtTest>

using napkin::parseNumber;

class TestNumberParse : public QObject {
    Q_OBJECT
private slots:
    void accepts_data();
    void accepts();
    void rejects_data();
    void rejects();
};

void TestNumberParse::accepts_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected");
    QTest::newRow("plain") << "36" << 36.0;
    QTest::newRow("e-notation") << "70e9" << 70e9;
    QTest::newRow("T suffix") << "15T" << 15e12;
    QTest::newRow("fractional B") << "1.5B" << 1.5e9;
    QTest::newRow("G as billion") << "2G" << 2e9;
    QTest::newRow("k lower") << "12k" << 12e3;
    QTest::newRow("M") << "175M" << 175e6;
    QTest::newRow("P") << "1P" << 1e15;
    QTest::newRow("Gi binary") << "80Gi" << 80.0 * 1024 * 1024 * 1024;
    QTest::newRow("underscores") << "124_439_808" << 124439808.0;
    QTest::newRow("spaces around") << "  42 " << 42.0;
    QTest::newRow("negative") << "-3" << -3.0;
    QTest::newRow("leading plus") << "+7" << 7.0;
    QTest::newRow("1.5e9") << "1.5e9" << 1.5e9;
}

void TestNumberParse::accepts() {
    QFETCH(QString, text);
    QFETCH(double, expected);
    const auto parsed = parseNumber(text.toStdString());
    QVERIFY2(parsed.ok(), parsed.error.c_str());
    QCOMPARE(parsed.value, expected);
}

void TestNumberParse::rejects_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("position");
    QTest::newRow("empty") << "" << 0;
    QTest::newRow("blank") << "   " << 0;
    QTest::newRow("word") << "seventy" << 0;
    QTest::newRow("trailing junk") << "7x" << 1;
    QTest::newRow("unknown suffix") << "5Q" << 1;
    QTest::newRow("inf") << "inf" << 0;
    QTest::newRow("nan") << "nan" << 0;
    QTest::newRow("overflow") << "1e400" << 0;
    QTest::newRow("overflow by suffix") << "1e300P" << 0;
    QTest::newRow("suffix alone") << "T" << 0;
    QTest::newRow("two dots") << "1.2.3" << 3;
}

void TestNumberParse::rejects() {
    QFETCH(QString, text);
    QFETCH(int, position);
    const auto parsed = parseNumber(text.toStdString());
    QVERIFY(!parsed.ok());
    QCOMPARE(int(parsed.errorAt), position);
}

QTEST_APPLESS_MAIN(TestNumberParse)
#include "tst_number_parse.moc"
