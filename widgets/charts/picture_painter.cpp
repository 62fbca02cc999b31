// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/picture_painter.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace {

constexpr double kInchesPerMeter = 39.3700787;

QByteArray pngBytes(const QImage& image) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG"))
        return {};
    return bytes;
}

// `paint` on a vector device whose dots are `dotsPerPixel` logical pixels.
bool paintVector(QPaintDevice& device, const PictureTarget& target, double dotsPerPixel,
                 const PaintPicture& paint) {
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    painter.scale(dotsPerPixel, dotsPerPixel);
    painter.setMode(QCPPainter::pmVectorized);
    painter.fillRect(QRect(QPoint(0, 0), target.size), target.paper);
    paint(painter);
    return painter.end();
}

} // namespace

QImage paintImage(const PictureTarget& target, const PaintPicture& paint) {
    QImage image(target.size * target.scale, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return {};
    // The painter's coordinates stay logical pixels: a picture at 2× is the same picture, sharper (a
    // pixmap drawn at 1× into it instead showed its top-left quarter, magnified).
    image.setDevicePixelRatio(target.scale);
    image.setDotsPerMeterX(qRound(target.dpi * kInchesPerMeter));
    image.setDotsPerMeterY(qRound(target.dpi * kInchesPerMeter));
    image.fill(target.paper);
    QCPPainter painter;
    if (!painter.begin(&image))
        return {};
    // Lines QCustomPlot draws one device pixel wide (cosmetic) widen with the picture, as QCustomPlot's
    // own toPixmap does: thin hairlines at 3× would fade on a projector.
    if (target.scale > 1.0)
        painter.setMode(QCPPainter::pmNonCosmetic);
    paint(painter);
    painter.end();
    return image;
}

QByteArray paintPicture(ImageFormat format, const PictureTarget& target, const PaintPicture& paint) {
    if (format == ImageFormat::png)
        return pngBytes(paintImage(target, paint));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    bool painted = false;
    if (format == ImageFormat::svg) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(target.size);
        svg.setViewBox(QRect(QPoint(0, 0), target.size));
        svg.setTitle(target.title);
        svg.setResolution(target.dpi); // font sizes as on screen, in the view box's units
        painted = paintVector(svg, target, 1.0, paint);
    } else {
        // One page exactly the size of the picture in points, so that it drops into a slide as is. The
        // writer's dots are the screen's logical pixels: text resolves to the size the widgets laid it out
        // at (at the writer's default 1200 dpi a chart's labels came out 16 times too large for their
        // boxes), and the page is filled by scaling the painter, which QWidget::render honours (it ignores
        // a window, and drew a page into a corner of the sheet).
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("Napkin"));
        pdf.setTitle(target.title);
        pdf.setResolution(target.dpi);
        pdf.setPageLayout(
            QPageLayout(QPageSize(QSizeF(target.size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                        QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        painted = paintVector(pdf, target, target.dpi / 72.0, paint);
    }
    return painted ? bytes : QByteArray();
}
