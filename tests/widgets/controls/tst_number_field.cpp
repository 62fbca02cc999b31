// SPDX-License-Identifier: GPL-3.0-or-later
// A count refuses a fraction in the field itself, with one red message that names the kept value; a
// fraction is fine where the field is not a count; a valid entry clears the message.
#include "widgets/controls/number_field.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

class TestNumberField : public QObject {
    Q_OBJECT
private slots:
    void entries_data();
    void entries();
    void oneMessageAtATime();
    void emptyCountSuggestsCounts();
    void messageMovesNothing();
};

// A refused entry's message appears under its field without moving the field or the controls below it (it
// took a row of the layout, and the form jumped down while the message was shown, back up when it went).
void TestNumberField::messageMovesNothing() {
    QWidget window;
    auto* form = new QFormLayout(&window);
    auto* field = new NumberField;
    form->addRow(QStringLiteral("Batch"), field);
    auto* below = new QLineEdit;
    form->addRow(QStringLiteral("Below"), below);
    auto* last = new QLineEdit;
    form->addRow(QStringLiteral("Last"), last);
    window.resize(420, 260);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    field->setRange(1, 1e6);
    field->setWholeNumbers(true);
    field->setValue(8);
    const auto settle = [] {
        for (int i = 0; i < 3; ++i)
            QCoreApplication::processEvents();
    };
    settle();
    const QRect fieldBefore = field->geometry(), belowBefore = below->geometry(),
                lastBefore = last->geometry();
    field->lineEdit()->setText(QStringLiteral("2.5"));
    emit field->lineEdit()->editingFinished();
    settle();
    QVERIFY(!field->errorText().isEmpty());
    QCOMPARE(field->geometry(), fieldBefore);
    QCOMPARE(below->geometry(), belowBefore);
    QCOMPARE(last->geometry(), lastBefore);
    // The message is on screen, under its field, whole.
    QLabel* message = nullptr;
    for (QLabel* label : window.findChildren<QLabel*>())
        if (label->isVisible() && label->text() == field->errorText())
            message = label;
    QVERIFY(message);
    const QRect shown(message->mapTo(&window, QPoint(0, 0)), message->size());
    QVERIFY2(shown.top() >= field->mapTo(&window, QPoint(0, 0)).y() + field->height(),
             qPrintable(QStringLiteral("message at y %1").arg(shown.top())));
    QVERIFY(window.rect().contains(shown));
    QVERIFY(message->height() >= message->heightForWidth(message->width()));
    field->lineEdit()->setText(QStringLiteral("16"));
    emit field->lineEdit()->editingFinished();
    settle();
    QVERIFY(field->errorText().isEmpty());
    QVERIFY(!message->isVisible());
    QCOMPARE(below->geometry(), belowBefore);
}

// An empty batch field suggests counts, not a model's "70B, 15T".
void TestNumberField::emptyCountSuggestsCounts() {
    NumberField field;
    QVERIFY(field.lineEdit()->placeholderText().contains(QStringLiteral("70B")));
    field.setWholeNumbers(true);
    QVERIFY(!field.lineEdit()->placeholderText().contains(QStringLiteral("70B")));
    QVERIFY(field.lineEdit()->placeholderText().contains(QStringLiteral("whole number")));
}

void TestNumberField::entries_data() {
    QTest::addColumn<bool>("whole");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<double>("kept");
    QTest::addColumn<QString>("message"); // a fragment of the message; empty: none
    QTest::newRow("batch 2.5 refused")
        << true << QStringLiteral("2.5") << 8.0 << QStringLiteral("whole number; keeping 8");
    QTest::newRow("batch 1.5e1 refused") << true << QStringLiteral("1.5e1") << 15.0 << QString();
    QTest::newRow("batch 16 taken") << true << QStringLiteral("16") << 16.0 << QString();
    QTest::newRow("batch 1e-1 refused")
        << true << QStringLiteral("0.1") << 8.0 << QStringLiteral("whole number");
    QTest::newRow("FFN multiple 2.6667 taken") << false << QStringLiteral("2.6667") << 2.6667 << QString();
    QTest::newRow("out of range first")
        << true << QStringLiteral("0") << 8.0 << QStringLiteral("between 1 and");
}

void TestNumberField::entries() {
    QFETCH(bool, whole);
    QFETCH(QString, typed);
    QFETCH(double, kept);
    QFETCH(QString, message);
    NumberField field;
    field.setRange(1, 1e6);
    field.setWholeNumbers(whole);
    field.setValue(8);
    QSignalSpy edited(&field, &NumberField::valueEdited);
    field.lineEdit()->setText(typed);
    emit field.lineEdit()->editingFinished();
    QCOMPARE(field.value(), kept);
    QCOMPARE(edited.count(), kept == 8.0 ? 0 : 1);
    if (message.isEmpty())
        QVERIFY2(field.errorText().isEmpty(), qPrintable(field.errorText()));
    else
        QVERIFY2(field.errorText().contains(message), qPrintable(field.errorText()));
}

// A second refused entry replaces the first message; it never stacks a second one under it.
void TestNumberField::oneMessageAtATime() {
    NumberField field;
    field.setRange(1, 1e6);
    field.setWholeNumbers(true);
    field.setValue(8);
    field.lineEdit()->setText(QStringLiteral("2.5"));
    emit field.lineEdit()->editingFinished();
    field.lineEdit()->setText(QStringLiteral("3.5"));
    emit field.lineEdit()->editingFinished();
    QVERIFY(field.errorText().startsWith(QStringLiteral("“3.5”")));
    QCOMPARE(field.errorText().count(QStringLiteral("keeping")), 1);
    QCOMPARE(field.findChildren<QLabel*>().size(), 1);
}

QTEST_MAIN(TestNumberField)
#include "tst_number_field.moc"
