// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Benchmarks page's tables: read-only, headers sized to their contents, numbers right-aligned.
#include <QString>
#include <QStringList>

class QTableWidget;
class QWidget;

QTableWidget* makeResultTable(const QStringList& headers, QWidget* parent);
/// Numbers right-aligned; the first and last columns (names, status, verdicts) left-aligned.
void setResultCell(QTableWidget* table, int row, int column, const QString& text, const QString& tip = {});
/// The widest text each column will hold (a formatted number at the largest size the page runs), so that
/// the table's minimum width, which decides whether it sits beside the chart or under it, is the same
/// before a run and after: the rows of a first run once moved it under the chart and took the chart's
/// height (issue 52). A cell wider than its sample still widens its column.
void setResultColumnSamples(QTableWidget* table, const QStringList& widest);
