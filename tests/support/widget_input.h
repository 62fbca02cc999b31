// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Driving controls as a user does, for the app's page tests: typing into a number field, choosing a
// combo box entry by its data.
#include "widgets/controls/number_field.h"

#include <QComboBox>
#include <QLineEdit>
#include <QtTest>

/// Types `text` into the field and presses Enter (the field commits on Enter).
inline void typeInto(NumberField* field, const QString& text) {
    QLineEdit* edit = field->lineEdit();
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

/// Selects the entry whose data is `data`; fails the test when there is none.
inline void choose(QComboBox* box, const QVariant& data) {
    const int index = box->findData(data);
    QVERIFY(index >= 0);
    box->setCurrentIndex(index);
}
