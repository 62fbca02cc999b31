// SPDX-License-Identifier: GPL-3.0-or-later
// The one size-list reader: matmul sizes (counts), copy sizes (binary bytes), tensor shapes (products,
// "×"), with the same limits and messages wherever a list is typed.
#include "engine/numerics/size_list.h"

#include <QtTest>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::SizeListRules)

namespace {

SizeListRules counts() {
    return {};
}

SizeListRules bytes() {
    SizeListRules r;
    r.unit = SizeUnit::bytes;
    r.maximum = 4.0 * 1024 * 1024 * 1024;
    return r;
}

SizeListRules shape() {
    SizeListRules r;
    r.minimum = 0;
    r.maximum = 1e15;
    r.separators = {",", "×", "x"};
    r.products = true;
    r.skipEmpty = true;
    return r;
}

} // namespace

class TestSizeList : public QObject {
    Q_OBJECT
private slots:
    void reads_data();
    void reads();
    void refuses_data();
    void refuses();
};

void TestSizeList::reads_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<SizeListRules>("rules");
    QTest::addColumn<QList<double>>("sizes");
    QTest::newRow("matmul sizes") << "512,1024,2048" << counts() << QList<double>{512, 1024, 2048};
    QTest::newRow("spaces around items") << " 128 , 256" << counts() << QList<double>{128, 256};
    QTest::newRow("napkin suffixes: 1k = 1000, 4Ki = 4096")
        << "1k,4Ki" << counts() << QList<double>{1000, 4096};
    QTest::newRow("the largest matmul size") << "65536" << counts() << QList<double>{65536};
    QTest::newRow("plain bytes") << "512" << bytes() << QList<double>{512};
    QTest::newRow("K is 1024") << "4K" << bytes() << QList<double>{4096};
    QTest::newRow("KiB lower case") << "4kib" << bytes() << QList<double>{4096};
    QTest::newRow("M and G") << "1M,1G" << bytes() << QList<double>{1048576, 1073741824};
    QTest::newRow("B suffix") << "100B" << bytes() << QList<double>{100};
    QTest::newRow("4 GiB is the limit") << "4G" << bytes() << QList<double>{4294967296.0};
    QTest::newRow("order kept") << "1M,4K" << bytes() << QList<double>{1048576, 4096};
    // The lecture's GPT-3 FFN matrix: 12288·4 × 12288.
    QTest::newRow("shape with a product") << "12288*4, 12288" << shape() << QList<double>{49152, 12288};
    QTest::newRow("shape with ×") << "4×8" << shape() << QList<double>{4, 8};
    QTest::newRow("shape with x and a zero") << "2x0x3" << shape() << QList<double>{2, 0, 3};
    QTest::newRow("shape: empty items skipped") << "4,,8," << shape() << QList<double>{4, 8};
    QTest::newRow("shape: nothing is a scalar") << "" << shape() << QList<double>{};
}

void TestSizeList::reads() {
    QFETCH(QString, text);
    QFETCH(SizeListRules, rules);
    QFETCH(QList<double>, sizes);
    const SizeList list = parseSizeList(text.toStdString(), rules);
    QVERIFY2(list.ok(), list.error.c_str());
    QCOMPARE(QList<double>(list.sizes.begin(), list.sizes.end()), sizes);
}

void TestSizeList::refuses_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<SizeListRules>("rules");
    QTest::addColumn<QString>("message");
    QTest::newRow("a word") << "64,zero" << counts() << "cannot read 'zero' as a number: not a number";
    QTest::newRow("empty list") << "" << counts() << "cannot read '' as a number: empty";
    QTest::newRow("trailing comma") << "64," << counts() << "cannot read '' as a number";
    QTest::newRow("fraction") << "1.5" << counts() << "'1.5' is not a whole number between 1 and 65536";
    QTest::newRow("zero") << "0" << counts() << "'0' is not a whole number between 1 and 65536";
    QTest::newRow("too large") << "100000" << counts()
                               << "'100000' is not a whole number between 1 and 65536";
    QTest::newRow("bytes: empty") << "" << bytes() << "'' is not a size";
    QTest::newRow("bytes: trailing comma") << "4K," << bytes() << "'' is not a size";
    QTest::newRow("bytes: zero") << "0" << bytes() << "'0' is zero bytes";
    QTest::newRow("bytes: negative") << "-4K" << bytes() << "'-4K' is not a size";
    QTest::newRow("bytes: fraction") << "1.5M" << bytes() << "'1.5M' has an unknown unit";
    QTest::newRow("bytes: decimal unit") << "4KB" << bytes() << "'4KB' has an unknown unit";
    QTest::newRow("bytes: above 4 GiB") << "5G" << bytes() << "'5G' is above the 4 GiB limit";
    QTest::newRow("bytes: 4 GiB + 1") << "4294967297" << bytes() << "is above the 4 GiB limit";
    QTest::newRow("bytes: huge digits")
        << "99999999999999999999999K" << bytes() << "is above the 4 GiB limit";
    QTest::newRow("bytes: a word") << "4K,lots" << bytes() << "'lots' is not a size";
    QTest::newRow("shape: negative factor")
        << "4*-2" << shape() << "'-2' is not a whole number between 0 and";
    QTest::newRow("shape: a word") << "4, eight" << shape() << "cannot read 'eight' as a number";
    QTest::newRow("shape: product too large") << "1e8*1e8" << shape() << "'1e8*1e8' is above the";
}

void TestSizeList::refuses() {
    QFETCH(QString, text);
    QFETCH(SizeListRules, rules);
    QFETCH(QString, message);
    const SizeList list = parseSizeList(text.toStdString(), rules);
    QVERIFY2(!list.ok(), "accepted a bad list");
    QVERIFY2(QString::fromStdString(list.error).contains(message), list.error.c_str());
    QVERIFY(list.sizes.empty());
}

QTEST_APPLESS_MAIN(TestSizeList)
#include "tst_size_list.moc"
