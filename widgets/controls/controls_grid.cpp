// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/controls_grid.h"

#include <QLabel>
#include <QStyle>
#include <QWidget>

ControlsGrid::ControlsGrid(QWidget* column)
    : QGridLayout(column) {
    setColumnStretch(1, 1);
}

QLabel* ControlsGrid::addName(const QString& name, Qt::Alignment vertical) {
    QWidget* column = parentWidget();
    auto* label = new QLabel(name, column);
    const auto side = Qt::Alignment(column->style()->styleHint(QStyle::SH_FormLayoutLabelAlignment));
    addWidget(label, m_row, 0, side | vertical);
    return label;
}

QLabel* ControlsGrid::addLabelled(const QString& name, QWidget* field) {
    QLabel* label = addName(name, Qt::AlignVCenter);
    label->setBuddy(field);
    addWidget(field, m_row++, 1);
    return label;
}

QLabel* ControlsGrid::addLabelled(const QString& name, QLayout* fields) {
    QLabel* label = addName(name, Qt::AlignTop);
    addLayout(fields, m_row++, 1);
    return label;
}

void ControlsGrid::addSpanning(QWidget* widget) {
    addWidget(widget, m_row++, 0, 1, 2);
}

void ControlsGrid::addSpanning(QLayout* layout) {
    addLayout(layout, m_row++, 0, 1, 2);
}

void ControlsGrid::endRows() {
    setRowStretch(m_row, 1);
}
