// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/combo_box_hints.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

void refreshComboBoxHints(QWidget& root) {
    for (QComboBox* box : root.findChildren<QComboBox*>()) {
        // The one public way to clear both cached hints: what a style change does, without changing style.
        QEvent styleChanged(QEvent::StyleChange);
        QCoreApplication::sendEvent(box, &styleChanged);
        box->updateGeometry();
    }
}
