// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The rows of a page's control column: a name beside its field (or beside rows of tick boxes), and rows
// that span both columns (notes, warnings, a row of buttons). A grid, not a QFormLayout: a form gave its
// spanning rows the height of their lines at the label's nominal width, whatever their minimum, so a
// wrapped note was drawn with lines cut (the Benchmarks page's fp16 warning, two of six lines; the
// training panel's refused-recipes note, one of two). A grid lays a wrapped label out at the height its
// lines take at the width it gets. Put it on a WrappingColumn, which asks its parent for that height.
#include <QGridLayout>

class QLabel;

class ControlsGrid : public QGridLayout {
    Q_OBJECT
public:
    /// The layout of `column`; names are made as its children.
    explicit ControlsGrid(QWidget* column);

    /// `name` in the first column, vertically centred on `field` beside it (`name`'s buddy).
    QLabel* addLabelled(const QString& name, QWidget* field);
    /// `name` in the first column at the top of `fields` (rows of boxes) beside it.
    QLabel* addLabelled(const QString& name, QLayout* fields);
    /// A row across both columns.
    void addSpanning(QWidget* widget);
    void addSpanning(QLayout* layout);
    /// The room left under the rows goes under them, not between them: after the last row.
    void endRows();

private:
    QLabel* addName(const QString& name, Qt::Alignment vertical);

    int m_row = 0;
};
