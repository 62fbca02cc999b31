// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: the one way a chart or a page becomes a picture. The caller paints in
// logical pixels on a painter whose coordinates run 0..size whatever the format; only the device differs
// (a PNG's image at `scale` device pixels per pixel, an SVG's user units, a PDF's points). Text resolves
// at the screen's DPI on every device, so that it is as large as when the widgets laid it out.
#include "widgets/charts/image_format.h"

#include <QByteArray>
#include <QColor>
#include <QImage>
#include <QSize>
#include <QString>

#include <functional>

class QCPPainter;

/// What a picture is painted on.
struct PictureTarget {
    QSize size;         ///< logical pixels: the painter's coordinates, the SVG's view box, the PDF's points
    double scale = 1.0; ///< device pixels per logical pixel (PNG; the vector formats scale themselves)
    int dpi = 96;       ///< the screen's logical DPI, at which the widgets measured their text
    QColor paper;       ///< the background, filled first
    QString title;      ///< the SVG's and PDF's document title
};

using PaintPicture = std::function<void(QCPPainter&)>;

/// `paint` on an image of `target.size` × `target.scale` pixels (device pixel ratio `scale`).
QImage paintImage(const PictureTarget& target, const PaintPicture& paint);
/// `paint` into the bytes of a PNG, SVG or PDF; empty on failure.
QByteArray paintPicture(ImageFormat format, const PictureTarget& target, const PaintPicture& paint);
