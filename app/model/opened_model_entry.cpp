// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/model/opened_model_entry.h"

#include "widgets/controls/grouped_combo_box.h"

#include <QComboBox>
#include <QCoreApplication>

int openedModelIndex(const QComboBox* box) {
    for (int i = 0; i < box->count(); ++i)
        if (!isGroupHeader(box, i) && box->itemData(i).toString().isEmpty() &&
            !box->itemData(i, kPresetNameRole).toString().isEmpty())
            return i;
    return -1;
}

int showOpenedModelEntry(QComboBox* box, const QString& label) {
    int index = openedModelIndex(box);
    if (index < 0) {
        addGroupHeader(box, QCoreApplication::translate("OpenedModelEntry", "Opened"));
        box->addItem(label, QString());
        index = box->count() - 1;
    }
    box->setItemText(index, label);
    box->setItemData(index, label, kPresetNameRole);
    box->setItemData(
        index,
        QCoreApplication::translate("OpenedModelEntry",
                                    "A config.json you opened: File ▸ Open model config… or a drop."),
        Qt::ToolTipRole);
    return index;
}
