// SPDX-License-Identifier: GPL-3.0-or-later
// The logarithmic slider + number field: both halves agree, and bad text is refused visibly.
#include "widgets/controls/log_slider_field.h"
#include "widgets/controls/number_field.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>

class TestLogSliderField : public QObject {
    Q_OBJECT
private slots:
    void positions_data();
    void positions();
    void sliderUpdatesField();
    void typedValueMovesSlider_data();
    void typedValueMovesSlider();
    void badTextIsRefused_data();
    void badTextIsRefused();
};

void TestLogSliderField::positions_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("position");
    // Parameters range 1e3 … 1e13: ten decades over 1000 steps, 100 steps a decade.
    QTest::newRow("lower end") << 1e3 << 0;
    QTest::newRow("1e9") << 1e9 << 600;
    QTest::newRow("70e9") << 70e9 << 785; // log10(70e9) = 10.845
    QTest::newRow("upper end") << 1e13 << 1000;
    QTest::newRow("below range clamps") << 10.0 << 0;
}

void TestLogSliderField::positions() {
    QFETCH(double, value);
    QFETCH(int, position);
    LogSliderField f;
    f.setRange(1e3, 1e13);
    QCOMPARE(f.positionFor(value), position);
}

void TestLogSliderField::sliderUpdatesField() {
    LogSliderField f;
    f.setRange(1e3, 1e13);
    f.setValue(1e6);
    QSignalSpy spy(&f, &LogSliderField::valueChanged);
    f.slider()->setValue(600);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toDouble(), 1e9);
    QCOMPARE(f.value(), 1e9);
    QCOMPARE(f.field()->lineEdit()->text(), QStringLiteral("1.00e9"));
    // Off-decade positions round to three significant digits and whole numbers.
    f.slider()->setValue(785);
    QCOMPARE(f.value(), 7.08e10);
    QCOMPARE(spy.count(), 2);
}

void TestLogSliderField::typedValueMovesSlider_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("position");
    QTest::newRow("70B") << "70B" << 70e9 << 785;
    QTest::newRow("1.5e9") << "1.5e9" << 1.5e9 << 618;
    QTest::newRow("10T") << "10T" << 1e13 << 1000;
}

void TestLogSliderField::typedValueMovesSlider() {
    QFETCH(QString, text);
    QFETCH(double, value);
    QFETCH(int, position);
    LogSliderField f;
    f.setRange(1e3, 1e13);
    f.setValue(1e6);
    QSignalSpy spy(&f, &LogSliderField::valueChanged);
    QLineEdit* edit = f.field()->lineEdit();
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toDouble(), value);
    QCOMPARE(f.slider()->value(), position);
    QVERIFY(f.field()->errorText().isEmpty());
}

void TestLogSliderField::badTextIsRefused_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("unknown suffix") << "70Q";
    QTest::newRow("not a number") << "lots";
    QTest::newRow("above range") << "1e20";
    QTest::newRow("below range") << "5";
}

void TestLogSliderField::badTextIsRefused() {
    QFETCH(QString, text);
    LogSliderField f;
    f.setRange(1e3, 1e13);
    f.setValue(70e9);
    const int before = f.slider()->value();
    QSignalSpy spy(&f, &LogSliderField::valueChanged);
    QLineEdit* edit = f.field()->lineEdit();
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(spy.count(), 0);
    QCOMPARE(f.value(), 70e9);
    QCOMPARE(f.slider()->value(), before);
    QVERIFY2(f.field()->errorText().contains(QStringLiteral("keeping 7.00e10")),
             qPrintable(f.field()->errorText()));
}

QTEST_MAIN(TestLogSliderField)
#include "tst_log_slider_field.moc"
