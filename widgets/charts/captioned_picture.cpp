// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/captioned_picture.h"

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

QByteArray captionedPicture(ImageFormat format, PictureTarget target, const PictureCaptions& captions,
                            const std::function<void(QCPPainter&, QSize)>& paintChart) {
    const QSize size = target.size;
    const QRect chartRect = chartRectIn(size, captions);
    target.paper = captions.paper;
    if (!captions.title.isEmpty())
        target.title = captions.title;
    else if (target.title.isEmpty())
        target.title = QStringLiteral("Napkin chart");
    return paintPicture(format, target, [&](QCPPainter& painter) {
        painter.setPen(captions.ink);
        if (!captions.title.isEmpty()) {
            painter.setFont(titleFontFor(captions.font, size));
            painter.drawText(QRect(0, 0, size.width(), chartRect.top()), Qt::AlignCenter, captions.title);
        }
        if (!captions.settings.isEmpty()) {
            const QFont font = settingsFontFor(captions.font, size);
            painter.setFont(font);
            const QRect line(8, chartRect.bottom() + 1, size.width() - 16,
                             size.height() - chartRect.bottom() - 1);
            painter.drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                             QFontMetrics(font).elidedText(captions.settings, Qt::ElideMiddle, line.width()));
        }
        painter.translate(chartRect.topLeft());
        paintChart(painter, chartRect.size());
    });
}
