#pragma once
// The Benchmarks page's tables: read-only, headers sized to their contents, numbers right-aligned.
#include <QString>
#include <QStringList>

class QTableWidget;
class QWidget;

QTableWidget* makeResultTable(const QStringList& headers, QWidget* parent);
/// Numbers right-aligned; the first and last columns (names, status, verdicts) left-aligned.
void setResultCell(QTableWidget* table, int row, int column, const QString& text, const QString& tip = {});
