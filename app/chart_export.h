#pragma once
// Writes a chart of the accounting page to a PNG file, for slides and for the headless --export.
#include <QSize>
#include <QString>

class AccountingPage;

enum class ChartKind { memory, flops };

/// Renders the page's memory or FLOP chart at `size` logical pixels × `scale` and writes it through
/// QSaveFile (no half-written file on failure). Returns an error message, or an empty string.
QString exportChartPng(AccountingPage& page, ChartKind chart, const QString& path, QSize size, double scale = 1.0);
