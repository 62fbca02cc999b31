#pragma once
// Writes a chart of the accounting page to a PNG file, for slides and for the headless --export.
#include <QSize>
#include <QString>

class AccountingPage;
class QCustomPlot;
class QPixmap;
class QWidget;

enum class ChartKind { memory, flops };

/// Renders the page's memory or FLOP chart at `size` logical pixels × `scale` and writes it through
/// QSaveFile (no half-written file on failure). Returns an error message, or an empty string.
QString exportChartPng(AccountingPage& page, ChartKind chart, const QString& path, QSize size, double scale = 1.0);

/// Renders a whole page (any widget) laid out at `size` logical pixels × `scale` and writes it as PNG.
QString exportWidgetPng(QWidget& widget, const QString& path, QSize size, double scale = 1.0);

/// Writes `pixmap` as PNG through QSaveFile. Returns an error message, or an empty string.
QString savePngAtomically(const QPixmap& pixmap, const QString& path);

/// A chart (any page's QCustomPlot) to `path` in the format its extension names (.png, .svg, .pdf),
/// through QSaveFile. Returns an error message, or an empty string.
QString exportPlotFile(QCustomPlot& plot, const QString& path, QSize size, double scale = 1.0);
/// A whole page to `path` in the format its extension names, through QSaveFile.
QString exportWidgetFile(QWidget& widget, const QString& path, QSize size, double scale = 1.0);
/// Writes `bytes` through QSaveFile: the old file stays whole until the new one is complete.
QString saveBytesAtomically(const QByteArray& bytes, const QString& path);
