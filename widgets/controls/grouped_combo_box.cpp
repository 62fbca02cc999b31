// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/grouped_combo_box.h"

#include <QComboBox>
#include <QStandardItemModel>

void addGroupHeader(QComboBox* box, const QString& title) {
    if (box->count() > 0)
        box->insertSeparator(box->count());
    box->addItem(title);
    // A QComboBox's own model is a QStandardItemModel; its separators are made the same way.
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    QStandardItem* item = model ? model->item(box->count() - 1) : nullptr;
    if (!item)
        return;
    item->setFlags(item->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
    QFont font = box->font();
    font.setBold(true);
    item->setData(font, Qt::FontRole);
    item->setData(QStringLiteral("header"), Qt::AccessibleDescriptionRole);
}

bool isGroupHeader(const QComboBox* box, int index) {
    const QModelIndex i = box->model()->index(index, box->modelColumn(), box->rootModelIndex());
    return i.isValid() && !(box->model()->flags(i) & Qt::ItemIsEnabled);
}
