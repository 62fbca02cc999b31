// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/page_columns.h"

#include "widgets/controls/panel_scroll_area.h"

#include <QHBoxLayout>
#include <QSplitter>

QSplitter* layOutPageColumns(QWidget* page, QWidget* controls, QWidget* results) {
    auto* layout = new QHBoxLayout(page);
    auto* split = new QSplitter(Qt::Horizontal, page);
    split->addWidget(controls);
    split->addWidget(new PanelScrollArea(results, page));
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
    return split;
}
