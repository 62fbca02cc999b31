// SPDX-License-Identifier: GPL-3.0-or-later
// A combo box grouped under headers: the headers are listed but cannot be chosen, and the arrow keys step
// from the last entry of one group to the first of the next.
#include "widgets/controls/grouped_combo_box.h"

#include <QComboBox>
#include <QtTest>

class TestGroupedComboBox : public QObject {
    Q_OBJECT
private slots:
    void headersCannotBeChosen();
    void arrowKeysStepOverHeaders();
};

namespace {

// "Pick…", then Llama: a, b; then Qwen: c.
void fill(QComboBox& box) {
    box.addItem(QStringLiteral("Pick…"));
    addGroupHeader(&box, QStringLiteral("Llama"));
    box.addItem(QStringLiteral("a"), QStringLiteral("a"));
    box.addItem(QStringLiteral("b"), QStringLiteral("b"));
    addGroupHeader(&box, QStringLiteral("Qwen"));
    box.addItem(QStringLiteral("c"), QStringLiteral("c"));
}

} // namespace

void TestGroupedComboBox::headersCannotBeChosen() {
    QComboBox box;
    fill(box);
    QCOMPARE(box.count(), 8); // separators before both headers
    const int llama = box.findText(QStringLiteral("Llama"));
    QVERIFY(llama > 0);
    QVERIFY(isGroupHeader(&box, llama));
    QVERIFY(isGroupHeader(&box, llama - 1)); // its separator
    QVERIFY(!isGroupHeader(&box, 0));
    QVERIFY(!isGroupHeader(&box, box.findData(QStringLiteral("a"))));
    QVERIFY(box.itemData(llama, Qt::FontRole).value<QFont>().bold());
    QVERIFY(!isGroupHeader(&box, 99)); // out of range: no item, no header
}

void TestGroupedComboBox::arrowKeysStepOverHeaders() {
    QComboBox box;
    fill(box);
    box.show();
    box.setFocus();
    box.setCurrentIndex(box.findData(QStringLiteral("b")));
    QTest::keyClick(&box, Qt::Key_Down);
    QCOMPARE(box.currentData().toString(), QStringLiteral("c"));
    QTest::keyClick(&box, Qt::Key_Up);
    QCOMPARE(box.currentData().toString(), QStringLiteral("b"));
    QTest::keyClick(&box, Qt::Key_Up);
    QTest::keyClick(&box, Qt::Key_Up);
    QCOMPARE(box.currentIndex(), 0); // "Pick…", over the Llama header
}

QTEST_MAIN(TestGroupedComboBox)
#include "tst_grouped_combo_box.moc"
