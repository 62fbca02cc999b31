// SPDX-License-Identifier: GPL-3.0-or-later
// jsonNestingDepth: the depth every JSON reader checks before it parses (scenario, config.json).
#include "engine/text/json_nesting.h"

#include <QtTest>

#include <string>

class TestJsonNesting : public QObject {
    Q_OBJECT
private slots:
    void depth_data();
    void depth();
};

void TestJsonNesting::depth_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("stopAbove");
    QTest::addColumn<int>("expected");
    QTest::newRow("a number") << QByteArray("42") << 32 << 0;
    QTest::newRow("an object") << QByteArray(R"({"a": 1})") << 32 << 1;
    QTest::newRow("siblings do not add up") << QByteArray(R"({"a": [1], "b": {"c": 2}})") << 32 << 2;
    QTest::newRow("brackets inside strings do not count") << QByteArray(R"({"a": "[[[{{{"})") << 32 << 1;
    QTest::newRow("an escaped quote stays inside the string")
        << QByteArray(R"({"a": "\"[[[", "b": [1]})") << 32 << 2;
    QTest::newRow("an escaped backslash ends before the quote")
        << QByteArray(R"({"a": "\\", "b": [[1]]})") << 32 << 3;
    // The list that crashed the scenario loader: 60,000 deep, counted no further than the cap.
    QTest::newRow("60,000 deep stops past the cap")
        << QByteArray(60000, '[') + QByteArray(60000, ']') << 32 << 33;
    QTest::newRow("unbalanced closers do not go negative") << QByteArray("]]]][") << 32 << 1;
}

void TestJsonNesting::depth() {
    QFETCH(QByteArray, text);
    QFETCH(int, stopAbove);
    QFETCH(int, expected);
    QCOMPARE(napkin::jsonNestingDepth(
                 std::string_view(text.constData(), static_cast<std::size_t>(text.size())), stopAbove),
             expected);
}

QTEST_APPLESS_MAIN(TestJsonNesting)
#include "tst_json_nesting.moc"
