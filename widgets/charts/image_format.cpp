#include "widgets/charts/image_format.h"

#include "widgets/charts/captioned_picture.h"
#include "widgets/charts/picture_painter.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFileInfo>
#include <QLayout>

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

QByteArray renderWidget(QWidget& widget, ImageFormat format, QSize pictureSize, double scale,
                        const QString& caption) {
    const QPalette& palette = widget.palette();
    const PictureCaptions captions{{}, caption, widget.font(), palette.color(QPalette::Window),
                                   palette.color(QPalette::WindowText)};
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
        widget.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    });
}
