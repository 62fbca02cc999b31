// SPDX-License-Identifier: GPL-3.0-or-later
// The wheel over a long panel scrolls the panel: a combo box, spin box or slider under the pointer keeps
// its value unless the user gave it focus first.
#include "widgets/controls/wheel_guard.h"

#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtTest>

namespace {

void turnWheel(QWidget* w) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent down(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                     Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &down);
}

struct Panel {
    QScrollArea area;
    QWidget* content = new QWidget;
    QComboBox* combo = new QComboBox;
    QSpinBox* spin = new QSpinBox;
    QSlider* slider = new QSlider(Qt::Horizontal);
    WheelGuard guard;

    Panel() {
        content->setLayout(new QVBoxLayout);
        auto* layout = static_cast<QVBoxLayout*>(content->layout());
        combo->addItems({QStringLiteral("adamw"), QStringLiteral("sgd"), QStringLiteral("adagrad")});
        spin->setRange(0, 100);
        spin->setValue(50);
        slider->setRange(0, 100);
        slider->setValue(50);
        for (QWidget* w :
             {static_cast<QWidget*>(combo), static_cast<QWidget*>(spin), static_cast<QWidget*>(slider)}) {
            layout->addWidget(w);
            layout->addSpacing(600); // taller than the area: the panel can scroll
        }
        area.setWidget(content);
        area.setWidgetResizable(true);
        area.resize(300, 300);
        guard.guard(area);
        area.show();
    }
};

} // namespace

class TestWheelGuard : public QObject {
    Q_OBJECT
private slots:
    void unfocusedControlScrollsThePanel_data();
    void unfocusedControlScrollsThePanel();
    void focusedControlTakesTheWheel();
};

void TestWheelGuard::unfocusedControlScrollsThePanel_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("combo box") << 0;
    QTest::newRow("spin box") << 1;
    QTest::newRow("slider") << 2;
}

void TestWheelGuard::unfocusedControlScrollsThePanel() {
    QFETCH(int, which);
    Panel p;
    QVERIFY(QTest::qWaitForWindowExposed(&p.area));
    QWidget* controls[] = {p.combo, p.spin, p.slider};
    QWidget* w = controls[which];
    QCOMPARE(w->focusPolicy(), Qt::StrongFocus);
    // Focus the window gave when it opened (the first control's, as a page's preset box) is not the
    // user's choice: the wheel still scrolls.
    w->setFocus(Qt::ActiveWindowFocusReason);
    // Focus the window gave when it opened (the first control's, as a page's preset box) is not the
    // user's choice: the wheel still scrolls.
    w->setFocus(Qt::ActiveWindowFocusReason);
    const int scrollBefore = p.area.verticalScrollBar()->value();
    turnWheel(w);
    QCOMPARE(p.combo->currentText(), QStringLiteral("adamw"));
    QCOMPARE(p.spin->value(), 50);
    QCOMPARE(p.slider->value(), 50);
    QVERIFY(p.area.verticalScrollBar()->value() > scrollBefore);
}

void TestWheelGuard::focusedControlTakesTheWheel() {
    Panel p;
    QVERIFY(QTest::qWaitForWindowExposed(&p.area));
    p.area.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&p.area));
    p.spin->setFocus(Qt::TabFocusReason); // as Tab gives it; a click gives MouseFocusReason
    QVERIFY(QTest::qWaitFor([&] { return p.spin->hasFocus(); }));
    turnWheel(p.spin);
    QCOMPARE(p.spin->value(), 49);
}

QTEST_MAIN(TestWheelGuard)
#include "tst_wheel_guard.moc"
