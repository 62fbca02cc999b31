// SPDX-License-Identifier: GPL-3.0-or-later
// After the window's font changes (presentation mode), a combo box's minimum width is its items' at the new
// font, as a box created at that font would measure them: without the refresh Qt 6.4 keeps the minimum
// measured at the old font, and the accounting page's control panel kept presentation mode's width.
#include "widgets/controls/combo_box_hints.h"

#include <QComboBox>
#include <QtTest>

class TestComboBoxHints : public QObject {
    Q_OBJECT
private slots:
    void minimumFollowsTheFont_data();
    void minimumFollowsTheFont();
};

void TestComboBoxHints::minimumFollowsTheFont_data() {
    QTest::addColumn<double>("scale");
    QTest::newRow("presentation mode's larger type") << 1.5;
    QTest::newRow("back to a smaller type") << 0.75;
}

void TestComboBoxHints::minimumFollowsTheFont() {
    QFETCH(double, scale);
    const QString longest = QStringLiteral("optimizer states and weights to host");
    QWidget window;
    auto* box = new QComboBox(&window);
    box->addItems({QStringLiteral("none"), longest});
    const int before = box->minimumSizeHint().width(); // measured, and cached, at the first font
    QFont font = window.font();
    font.setPointSizeF(font.pointSizeF() * scale);
    window.setFont(font);
    refreshComboBoxHints(window);

    QWidget fresh;
    fresh.setFont(font);
    auto* measured = new QComboBox(&fresh);
    measured->addItems({QStringLiteral("none"), longest});
    QCOMPARE(box->minimumSizeHint().width(), measured->minimumSizeHint().width());
    QCOMPARE(box->minimumSizeHint().width() > before, scale > 1.0);
}

QTEST_MAIN(TestComboBoxHints)
#include "tst_combo_box_hints.moc"
