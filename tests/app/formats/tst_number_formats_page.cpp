// SPDX-License-Identifier: GPL-3.0-or-later
// The number-formats page driven like a user: typing a value sets every format's bits; clicking a bit
// changes the value everywhere; the range chart marks the value.
#include "app/classroom/colour_scheme.h"
#include "app/classroom/presentation_mode.h"
#include "app/formats/number_formats_page.h"
#include "engine/numerics/float_format.h"
#include "tests/support/wcag_contrast.h"
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/controls/bit_field_view.h"

#include <QApplication>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QtTest>

using napkin::FloatFormat;

namespace {

void typeValue(NumberFormatsPage& page, const QString& text) {
    page.valueEdit()->selectAll();
    QTest::keyClicks(page.valueEdit(), text);
    QTest::keyClick(page.valueEdit(), Qt::Key_Return);
}

void clickBit(BitFieldView* view, int bit) {
    const BitFieldGeometry geometry = view->geometry();
    const BitFieldGeometry::Cell* cell = geometry.cellFor(bit);
    QVERIFY(cell);
    QTest::mouseClick(view, Qt::LeftButton, {}, cell->rect.center().toPoint());
}

} // namespace

class TestNumberFormatsPage : public QObject {
    Q_OBJECT
private slots:
    void typingUpdatesTheBits_data();
    void typingUpdatesTheBits();
    void flippingABitUpdatesTheValue();
    void badTextIsRefusedWithAMessage();
    void valueMessageMovesNothing();
    void tensorCost();
    void renderToPng();
    void notesReadOnAProjector_data();
    void notesReadOnAProjector();
    void classColourFollowsTheValue();
};

void TestNumberFormatsPage::typingUpdatesTheBits_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("format");
    QTest::addColumn<uint>("bits");
    QTest::addColumn<QString>("cls");
    QTest::newRow("1e-8 underflows in fp16") << "1e-8" << int(FloatFormat::fp16) << 0x0000u << "zero";
    QTest::newRow("1e-8 survives in bf16") << "1e-8" << int(FloatFormat::bf16) << 0x322cu << "normal";
    QTest::newRow("65504 is fp16's max") << "65504" << int(FloatFormat::fp16) << 0x7bffu << "normal";
    QTest::newRow("448 is E4M3's max") << "448" << int(FloatFormat::fp8_e4m3) << 0x7eu << "normal";
    QTest::newRow("1e5 overflows E4M3 to NaN") << "1e5" << int(FloatFormat::fp8_e4m3) << 0x7fu << "nan";
    QTest::newRow("1e5 overflows fp16 to inf") << "1e5" << int(FloatFormat::fp16) << 0x7c00u << "inf";
    QTest::newRow("-inf") << "-inf" << int(FloatFormat::fp8_e5m2) << 0xfcu << "inf";
    QTest::newRow("0.1 in fp32") << "0.1" << int(FloatFormat::fp32) << 0x3dcccccdu << "normal";
}

void TestNumberFormatsPage::typingUpdatesTheBits() {
    QFETCH(QString, text);
    QFETCH(int, format);
    QFETCH(uint, bits);
    QFETCH(QString, cls);
    NumberFormatsPage page;
    page.show();
    typeValue(page, text);
    const auto f = FloatFormat(format);
    QCOMPARE(page.bitView(f)->bits(), bits);
    QCOMPARE(page.classLabel(f)->text(), cls);
    QCOMPARE(page.storedValueLabel(f)->text().isEmpty(), false);
}

void TestNumberFormatsPage::flippingABitUpdatesTheValue() {
    NumberFormatsPage page;
    page.resize(1100, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    typeValue(page, QStringLiteral("1"));
    BitFieldView* fp16 = page.bitView(FloatFormat::fp16);
    QCOMPARE(fp16->bits(), 0x3c00u);
    clickBit(fp16, 10); // lowest exponent bit: 2^0 → 2^-1
    QCOMPARE(fp16->bits(), 0x3800u);
    QCOMPARE(page.value(), 0.5);
    QCOMPARE(page.valueEdit()->text(), QStringLiteral("0.5"));
    QCOMPARE(page.bitView(FloatFormat::fp32)->bits(), 0x3f000000u); // every format follows
    QCOMPARE(page.bitView(FloatFormat::fp8_e4m3)->bits(), 0x30u);
    QCOMPARE(page.rangeChart()->markedMagnitude().value_or(0), 0.5);
    clickBit(fp16, 15); // the sign
    QCOMPARE(page.value(), -0.5);
    QCOMPARE(page.storedValueLabel(FloatFormat::bf16)->text(), QStringLiteral("-0.5"));
    clickBit(page.bitView(FloatFormat::fp8_e4m3), 0); // E4M3 -0.5 = 0xb0 → 0xb1 = -0.5625
    QCOMPARE(page.value(), -0.5625);
    QCOMPARE(page.bitView(FloatFormat::fp16)->bits(), 0xb880u);
    // Issue 35: a long exact value showed its end ("…476089477539e-05") with its leading digits hidden.
    typeValue(page, QStringLiteral("1"));
    clickBit(page.bitView(FloatFormat::fp32), 0); // 1 + 2^-23 = 1.00000011920928955078125
    QVERIFY2(page.valueEdit()->text().startsWith(QStringLiteral("1.0000001192")),
             qPrintable(page.valueEdit()->text()));
    QCOMPARE(page.valueEdit()->cursorPosition(), 0);
}

void TestNumberFormatsPage::badTextIsRefusedWithAMessage() {
    NumberFormatsPage page;
    page.show();
    typeValue(page, QStringLiteral("448"));
    typeValue(page, QStringLiteral("lots"));
    QVERIFY(page.valueError()->isVisible());
    QVERIFY(page.valueError()->text().contains(QStringLiteral("lots")));
    QCOMPARE(page.value(), 448.0); // the last good value is kept
    typeValue(page, QStringLiteral("1e-8"));
    QVERIFY(!page.valueError()->isVisible());
}

void TestNumberFormatsPage::tensorCost() {
    NumberFormatsPage page;
    page.shapeEdit()->setText(QStringLiteral("4, 8"));
    QTest::keyClick(page.shapeEdit(), Qt::Key_Return);
    QVERIFY2(page.tensorCostLabel()->text().contains(QStringLiteral("fp32 128 B")),
             qPrintable(page.tensorCostLabel()->text()));
    page.shapeEdit()->setText(QStringLiteral("12288*4, 12288"));
    QTest::keyClick(page.shapeEdit(), Qt::Key_Return);
    const QString text = page.tensorCostLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("fp32 2.25 GiB")) &&
                 text.contains(QStringLiteral("fp8-e4m3 576 MiB")),
             qPrintable(text));
}

// Set NAPKIN_GRAB_DIR to write the page as PNG (for looking at it; nothing is asserted about pixels).
void TestNumberFormatsPage::renderToPng() {
    const QString dir = qEnvironmentVariable("NAPKIN_GRAB_DIR");
    if (dir.isEmpty())
        QSKIP("NAPKIN_GRAB_DIR not set");
    NumberFormatsPage page;
    page.resize(1280, 760);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    typeValue(page, QStringLiteral("1e-8"));
    QTest::qWait(50); // let the queued replot run
    QVERIFY(page.grab().save(dir + QStringLiteral("/number_formats_page.png")));
    typeValue(page, QStringLiteral("1e5")); // overflow: inf in fp16 and E5M2, NaN in E4M3
    QTest::qWait(50);
    QVERIFY(page.grab().save(dir + QStringLiteral("/number_formats_page_1e5.png")));
}

// Issue 35: each format's description under its row was grey #7f8c8d whatever the palette, 3.4:1 on a
// projector's white in presentation mode. As drawn, its text must reach WCAG AA's 4.5:1 on both papers.
void TestNumberFormatsPage::notesReadOnAProjector_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light presentation") << false;
    QTest::newRow("dark presentation") << true;
}

void TestNumberFormatsPage::notesReadOnAProjector() {
    QFETCH(bool, dark);
    NumberFormatsPage page;
    page.setPalette(presentationPalette(dark ? darkPalette() : QApplication::palette()));
    page.resize(1280, 760);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    const QList<QLabel*> notes = page.findChildren<QLabel*>(QStringLiteral("formatNote"));
    QVERIFY(notes.size() >= 4);
    for (QLabel* note : notes) {
        const QImage drawn = note->grab().toImage();
        const QColor paper = note->palette().color(QPalette::Window);
        const double ink = strongestEdge(drawn, drawn.rect(), paper);
        QVERIFY2(ink >= 4.5, qPrintable(QStringLiteral("%1: %2:1").arg(note->text().left(30)).arg(ink)));
    }
}

// A lost value's class ("nan", "inf", "zero") is red and bold, a subnormal amber, and a later value that
// survives is drawn as the rest of the row again: the tones are set through the palette (text_tone.h), and
// clearing one must give the label back the window's colour and weight.
void TestNumberFormatsPage::classColourFollowsTheValue() {
    NumberFormatsPage page;
    page.show();
    QLabel* fp8 = page.classLabel(FloatFormat::fp8_e4m3);
    const QColor plain = page.palette().color(QPalette::WindowText);
    const auto ink = [&] { return fp8->palette().color(fp8->foregroundRole()); };
    typeValue(page, QStringLiteral("1e5")); // past E4M3's 448: NaN
    QCOMPARE(fp8->text(), QStringLiteral("nan"));
    QVERIFY2(ink() != plain && ink().red() > ink().green(), qPrintable(ink().name()));
    QVERIFY(QFontInfo(fp8->font()).bold());
    typeValue(page, QStringLiteral("0.1"));
    QCOMPARE(fp8->text(), QStringLiteral("normal"));
    QCOMPARE(ink(), plain);
    QVERIFY(!QFontInfo(fp8->font()).bold());
    QCOMPARE(QFontInfo(fp8->font()).pixelSize(), QFontInfo(page.font()).pixelSize());
}

QTEST_MAIN(TestNumberFormatsPage)
// Issue 35: the refused value's message took a row of its own when it appeared, and the table of formats
// under it jumped down; its line is kept, shown or not.
void TestNumberFormatsPage::valueMessageMovesNothing() {
    NumberFormatsPage page;
    page.resize(1200, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    auto* bits = page.findChild<BitFieldView*>();
    QVERIFY(bits);
    const QPoint before = bits->mapTo(&page, QPoint(0, 0));
    typeValue(page, QStringLiteral("lots"));
    QVERIFY(page.valueError()->isVisible());
    QCoreApplication::sendPostedEvents();
    page.layout()->activate();
    QCOMPARE(bits->mapTo(&page, QPoint(0, 0)), before);
}

#include "tst_number_formats_page.moc"
