#include "widgets/charts/image_format.h"

#include "widgets/charts/vector_painter.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QLayout>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

QByteArray paintVector(ImageFormat format, QSize size, const QString& title,
                       const std::function<void(QCPPainter&)>& paint) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QCPPainter painter;
    if (format == ImageFormat::svg) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        if (!painter.begin(&svg))
            return {};
        painter.setMode(QCPPainter::pmVectorized);
        paint(painter);
        painter.end();
    } else {
        // One page exactly the size of the chart, in points, so that it drops into a slide as is.
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("Napkin"));
        pdf.setTitle(title);
        pdf.setPageLayout(
            QPageLayout(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                        QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        if (!painter.begin(&pdf))
            return {};
        painter.setMode(QCPPainter::pmVectorized);
        painter.setWindow(QRect(QPoint(0, 0), size));
        paint(painter);
        painter.end();
    }
    return bytes;
}

QByteArray pngBytes(const QPixmap& pixmap) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (pixmap.isNull() || !pixmap.save(&buffer, "PNG"))
        return {};
    return bytes;
}

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

QByteArray renderWidget(QWidget& widget, ImageFormat format, QSize size, double scale) {
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
    if (format == ImageFormat::png) {
        QPixmap pixmap(size * scale);
        pixmap.setDevicePixelRatio(scale);
        pixmap.fill(widget.palette().color(QPalette::Window));
        widget.render(&pixmap);
        return pngBytes(pixmap);
    }
    return paintVector(format, size, QStringLiteral("Napkin page"), [&](QCPPainter& painter) {
        painter.fillRect(QRect(QPoint(0, 0), size), widget.palette().color(QPalette::Window));
        widget.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    });
}
