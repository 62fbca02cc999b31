// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/image_format.h"

#include "widgets/charts/captioned_picture.h"
#include "widgets/charts/picture_painter.h"

#include <qcustomplot.h>

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QLayout>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

std::optional<ImageFormat> imageFormatForPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ImageFormat::png;
    if (suffix == QLatin1String("svg"))
        return ImageFormat::svg;
    if (suffix == QLatin1String("pdf"))
        return ImageFormat::pdf;
    return std::nullopt;
}

namespace {

// A scroll area's viewport whose content is larger than it (a table's rows, a document's lines): its own
// painting relies on the clip to stop at its edge (a table paints its last row whole).
bool paintsPastItsEdge(const QWidget& widget) {
    const auto* area = qobject_cast<const QAbstractScrollArea*>(widget.parentWidget());
    if (!area || area->viewport() != &widget)
        return false;
    // A table's header scrolls with the table, not by scroll bars of its own.
    if (const auto* header = qobject_cast<const QHeaderView*>(area))
        return header->length() - header->offset() >
               (header->orientation() == Qt::Vertical ? widget.height() : widget.width());
    return area->verticalScrollBar()->maximum() > 0 || area->horizontalScrollBar()->maximum() > 0;
}

// Paints `widget` and its descendants into a vector `painter` (root coordinates) as the screen shows them,
// each cut by the panels it lies in (`seen`: what its ancestors show, in root coordinates). Qt 6.4's SVG
// generator keeps no clip at all and its PDF engine lost a scroll area's viewport, so drawn in one piece
// a row cut by a panel's bottom edge came out whole, over what lies below the panel. Here a widget inside
// its panel is painted as vectors; one cut by an edge paints its own part (not its children's: they are
// judged in turn) as pixels of its visible part at `pixelScale`, as does a viewport that paints past its
// edge; one outside is not painted.
void paintAsShown(const QWidget& root, QWidget& widget, QPainter& painter, const QRect& seen,
                  double pixelScale) {
    const QRect area(widget.mapTo(&root, QPoint(0, 0)), widget.size());
    const QRect shown = area & seen;
    if (shown.isEmpty())
        return;
    if (shown == area && !paintsPastItsEdge(widget)) {
        widget.render(&painter, area.topLeft(), QRegion(), QWidget::RenderFlags());
    } else {
        QImage pixels(
            QSize(int(std::ceil(shown.width() * pixelScale)), int(std::ceil(shown.height() * pixelScale))),
            QImage::Format_ARGB32_Premultiplied);
        pixels.setDevicePixelRatio(pixelScale);
        pixels.fill(Qt::transparent);
        widget.render(&pixels, QPoint(), QRegion(shown.translated(-area.topLeft())), QWidget::RenderFlags());
        painter.drawImage(QRectF(shown), pixels);
    }
    for (QObject* object : widget.children())
        if (auto* child = qobject_cast<QWidget*>(object); child && !child->isWindow() && !child->isHidden())
            paintAsShown(root, *child, painter, shown, pixelScale);
}

} // namespace

QByteArray renderWidget(QWidget& widget, ImageFormat format, QSize pictureSize, double scale,
                        const QString& caption) {
    const QPalette& palette = widget.palette();
    const PictureCaptions captions{
        {}, caption, widget.font(), palette.color(QPalette::Window), palette.color(QPalette::WindowText)};
    const QSize size = chartRectIn(pictureSize, captions).size(); // the page's, above the caption
    widget.resize(size);
    widget.ensurePolished();
    if (!widget.isVisible()) { // lay the page out without showing it on any screen
        widget.setAttribute(Qt::WA_DontShowOnScreen);
        // The page is a window of its own here: a layout that sized it would hand its minimum size to a
        // platform window that has none (offscreen: "does not support propagateSizeHints()" on stderr).
        if (QLayout* layout = widget.layout())
            layout->setSizeConstraint(QLayout::SetNoConstraint);
        widget.show();
    }
    // A few turns, and one resize more: wrapped labels in scrolled panels settle their heights for the
    // width they finally got (laid out once, their rows kept the height of a wider first guess), and
    // charts lay out their refitted axis titles.
    QCoreApplication::processEvents();
    widget.resize(size - QSize(1, 0));
    QCoreApplication::processEvents();
    widget.resize(size);
    for (int pass = 0; pass < 3; ++pass)
        QCoreApplication::processEvents();
    const PictureTarget target{pictureSize, scale, widget.logicalDpiY(), captions.paper,
                               QStringLiteral("Napkin page")};
    return captionedPicture(format, target, captions, [&](QCPPainter& painter, QSize) {
        if (format == ImageFormat::png) // pixels: Qt's raster painter clips each panel as the screen does
            widget.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
        else
            paintAsShown(widget, widget, painter, widget.rect(), std::max(2.0, scale));
    });
}
