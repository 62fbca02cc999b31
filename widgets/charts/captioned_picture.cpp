#include "widgets/charts/captioned_picture.h"

#include "widgets/charts/vector_painter.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace {

// Title above, settings below, both sized to the picture (a 1600×900 slide gets a 24 px title).
QFont titleFontFor(QFont font, QSize size) {
    font.setPixelSize(std::max(12, size.height() / 38));
    font.setBold(true);
    return font;
}

QFont settingsFontFor(QFont font, QSize size) {
    font.setPixelSize(std::max(10, size.height() / 56));
    return font;
}

} // namespace

QRect chartRectIn(QSize size, const PictureCaptions& captions) {
    const int titleHeight =
        captions.title.isEmpty() ? 0 : QFontMetrics(titleFontFor(captions.font, size)).height() * 3 / 2;
    const int settingsHeight =
        captions.settings.isEmpty() ? 0 : QFontMetrics(settingsFontFor(captions.font, size)).height() * 3 / 2;
    return {0, titleHeight, size.width(), size.height() - titleHeight - settingsHeight};
}

QByteArray captionedPicture(ImageFormat format, QSize size, double scale, const PictureCaptions& captions,
                            const std::function<QPixmap(QSize, double)>& chartPixmap,
                            const std::function<void(QCPPainter&, QSize)>& paintChart) {
    const bool withTitle = !captions.title.isEmpty();
    const bool withSettings = !captions.settings.isEmpty();
    const QString documentTitle = withTitle ? captions.title : QStringLiteral("Napkin chart");
    if (!withTitle && !withSettings) {
        if (format == ImageFormat::png)
            return pngBytes(chartPixmap(size, scale));
        return paintVector(format, size, documentTitle, [&](QCPPainter& painter) { paintChart(painter, size); });
    }
    const QFont titleFont = titleFontFor(captions.font, size);
    const QFont settingsFont = settingsFontFor(captions.font, size);
    const QRect chartRect = chartRectIn(size, captions);
    const int titleHeight = chartRect.top();
    const int settingsHeight = size.height() - chartRect.bottom() - 1;
    const auto paintCaptions = [&](QPainter& painter) {
        painter.fillRect(QRect(QPoint(0, 0), size), captions.paper);
        painter.setPen(captions.ink);
        if (withTitle) {
            painter.setFont(titleFont);
            painter.drawText(QRect(0, 0, size.width(), titleHeight), Qt::AlignCenter, captions.title);
        }
        if (withSettings) {
            painter.setFont(settingsFont);
            const QRect line(8, chartRect.bottom() + 1, size.width() - 16, settingsHeight);
            painter.drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                             QFontMetrics(settingsFont).elidedText(captions.settings, Qt::ElideMiddle, line.width()));
        }
    };
    if (format == ImageFormat::png) {
        QPixmap pixmap(size * scale);
        pixmap.setDevicePixelRatio(scale);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::TextAntialiasing);
        paintCaptions(painter);
        painter.drawPixmap(chartRect.topLeft(), chartPixmap(chartRect.size(), scale));
        painter.end();
        return pngBytes(pixmap);
    }
    return paintVector(format, size, documentTitle, [&](QCPPainter& painter) {
        paintCaptions(painter);
        painter.translate(chartRect.topLeft());
        paintChart(painter, chartRect.size());
    });
}
