// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: an exported chart's picture with its title above and its settings line
// below (the command that reproduces it), each sized to the picture, in PNG, SVG or PDF.
#include "widgets/charts/image_format.h"
#include "widgets/charts/picture_painter.h"

#include <QByteArray>
#include <QColor>
#include <QFont>
#include <QRect>
#include <QSize>
#include <QString>

#include <functional>

class QCPPainter;

struct PictureCaptions {
    QString title;    ///< above the chart; none when empty
    QString settings; ///< below it, elided in the middle when long; none when empty
    QFont font;       ///< the chart's, resized to the picture
    QColor paper;     ///< the background
    QColor ink;       ///< the captions' text
};

/// Where the chart itself is drawn in a picture of `size` with `captions`: below the title, above the
/// settings line; the whole picture without captions.
QRect chartRectIn(QSize size, const PictureCaptions& captions);

/// The chart drawn by `paintChart` (onto the painter at its origin, in the size given) with `captions`
/// around it, through the one picture path (picture_painter.h) at `target`'s size, scale and DPI (its
/// paper and title are the captions'); without captions, the chart alone. Empty on failure.
QByteArray captionedPicture(ImageFormat format, PictureTarget target, const PictureCaptions& captions,
                            const std::function<void(QCPPainter&, QSize)>& paintChart);
