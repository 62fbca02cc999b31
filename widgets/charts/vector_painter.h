#pragma once
// Internal to widgets/charts: painting into SVG or PDF bytes with QCustomPlot's painter.
#include "widgets/charts/image_format.h"

#include <QByteArray>
#include <QPixmap>
#include <QSize>
#include <QString>

#include <functional>

class QCPPainter;

/// Runs `paint` on a painter whose logical coordinates are 0..size on the vector device of `format`
/// (svg or pdf); the bytes of the document, empty on failure.
QByteArray paintVector(ImageFormat format, QSize size, const QString& title,
                       const std::function<void(QCPPainter&)>& paint);
/// A pixmap as PNG bytes; empty on failure.
QByteArray pngBytes(const QPixmap& pixmap);
