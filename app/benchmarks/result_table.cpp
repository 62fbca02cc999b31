#include "app/benchmarks/result_table.h"

#include <QHeaderView>
#include <QTableWidget>

QTableWidget* makeResultTable(const QStringList& headers, QWidget* parent) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

void setResultCell(QTableWidget* table, int row, int column, const QString& text, const QString& tip) {
    auto* item = new QTableWidgetItem(text);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    if (column > 0 && column < table->columnCount() - 1)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, column, item);
}
