// SPDX-License-Identifier: GPL-3.0-or-later
// The Parallelism group's sizes are the layout table's (engine/accounting/parallel_layout_knobs.h): each
// knob a whole-number box with the table's range, label and step, its flag in the tooltip, found by the
// field validation names; a value in the box reaches the layout and a layout shown sets the box. Before the
// table the group spelled each range and label itself (control_ranges.h's, and a {1, 64} of its own for v).
#include "app/accounting/parallelism_controls.h"
#include "app/model/number_knob_rows.h"
#include "engine/accounting/parallel_layout_knobs.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QtTest>

using namespace napkin;

class TestLayoutKnobRows : public QObject {
    Q_OBJECT
private slots:
    void boxesAreTheTable() {
        ParallelismControls controls;
        auto* form = qobject_cast<QFormLayout*>(controls.layout());
        QVERIFY(form);
        for (const NumberKnob<ParallelLayout>& knob : parallelLayoutKnobs()) {
            const QString key = QString::fromUtf8(knob.key.data(), qsizetype(knob.key.size()));
            QSpinBox* box = controls.box(knob.key);
            QVERIFY2(box, qPrintable(key));
            QCOMPARE(controls.controlFor(std::string(knob.field())), static_cast<QWidget*>(box));
            QCOMPARE(double(box->minimum()), knob.range.low); // every size is whole, from 1
            QCOMPARE(double(box->maximum()), knob.range.high);
            QCOMPARE(double(box->singleStep()), knob.look.step);
            // An optional knob (uneven stages' layers): its checkbox and box share the row's field.
            QCheckBox* set = controls.check(knob.key);
            QCOMPARE(set != nullptr, knob.isOptional());
            const auto* label =
                qobject_cast<QLabel*>(form->labelForField(set ? box->parentWidget() : static_cast<QWidget*>(box)));
            QVERIFY2(label && label->text() == numberKnobLabel(knob), qPrintable(key));
            if (set) { // unset, the even split: no value
                QCOMPARE(knob.get(controls.parallel()), std::nullopt);
                set->setChecked(true);
            }
            QVERIFY2(box->property("applicableTip")
                         .toString()
                         .endsWith(QString::fromUtf8(knob.flag.data(), qsizetype(knob.flag.size()))),
                     qPrintable(key));
            box->setValue(box->maximum());
            QCOMPARE(knob.get(controls.parallel()), std::optional(knob.range.high));
            ParallelLayout shown;
            knob.set(shown, 3);
            controls.setParallel(shown);
            QCOMPARE(box->value(), 3);
            QCOMPARE(controls.parallel(), shown);
            if (set)
                QVERIFY(set->isChecked());
        }
        QCOMPARE(controls.controlFor("sp"), static_cast<QWidget*>(controls.spCheck()));
        QCOMPARE(controls.box("sp"), nullptr);
    }

    // tp, pp, the sequence-parallel switch, cp, ep, micro-batches, v, the uneven stages' first and last,
    // then the data parallelism left.
    void rowsInTheTablesOrder() {
        ParallelismControls controls;
        auto* form = qobject_cast<QFormLayout*>(controls.layout());
        QCOMPARE(form->rowCount(), 10);
        QCOMPARE(form->itemAt(0, QFormLayout::FieldRole)->widget(), static_cast<QWidget*>(controls.tpBox()));
        QCOMPARE(form->itemAt(1, QFormLayout::FieldRole)->widget(), static_cast<QWidget*>(controls.ppBox()));
        QCOMPARE(form->itemAt(2, QFormLayout::FieldRole)->widget(),
                 static_cast<QWidget*>(controls.spCheck()));
        QCOMPARE(form->itemAt(6, QFormLayout::FieldRole)->widget(),
                 static_cast<QWidget*>(controls.virtualStagesBox()));
        QCOMPARE(form->itemAt(7, QFormLayout::FieldRole)->widget(),
                 controls.box("first_stage_layers")->parentWidget());
        QCOMPARE(form->itemAt(8, QFormLayout::FieldRole)->widget(),
                 controls.box("last_stage_layers")->parentWidget());
    }
};

QTEST_MAIN(TestLayoutKnobRows)
#include "tst_layout_knob_rows.moc"
