#pragma once
// A chart as a file: PNG (with a device-pixel scale for sharp slides), SVG or PDF (vector, text stays
// text). Bytes only; the app writes them through QSaveFile. QCustomPlot stays forward-declared.
#include <QByteArray>
#include <QSize>
#include <QString>

#include <optional>

class QCustomPlot;
class QWidget;

enum class ImageFormat { png, svg, pdf };

/// By the file's extension, case-insensitively: .png, .svg, .pdf; nullopt for anything else.
std::optional<ImageFormat> imageFormatForPath(const QString& path);

/// The plot drawn at `size` logical pixels (PNG: × `scale` device pixels; SVG and PDF: `size` points,
/// drawn as vectors). Empty on failure.
QByteArray renderPlot(QCustomPlot& plot, ImageFormat format, QSize size, double scale = 1.0);

/// A whole widget (a page) laid out at `size` and painted into the format; charts inside it are
/// pixmaps in SVG and PDF (QCustomPlot paints from its buffer), labels and text are vectors.
QByteArray renderWidget(QWidget& widget, ImageFormat format, QSize size, double scale = 1.0);
