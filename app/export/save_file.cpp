// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/export/save_file.h"

#include "widgets/charts/chart_view.h"
#include "widgets/charts/image_format.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QPointer>
#include <QSaveFile>

#include <vector>

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("SaveFile", text);
}

QString unknownFormat(const QString& path) {
    return tr("%1: the name must end in .png, .svg or .pdf").arg(path);
}

// While alive, no scroll area in a page shows a scroll bar: a picture cannot be scrolled, and the bars
// took a strip off the answers. Each area gets its own policies back after.
class ScrollBarsOff {
public:
    explicit ScrollBarsOff(QWidget& page) {
        for (QAbstractScrollArea* area : page.findChildren<QAbstractScrollArea*>()) {
            m_areas.push_back({area, area->horizontalScrollBarPolicy(), area->verticalScrollBarPolicy()});
            area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
            area->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        }
    }
    ~ScrollBarsOff() {
        for (const Area& a : m_areas)
            if (a.area) {
                a.area->setHorizontalScrollBarPolicy(a.horizontal);
                a.area->setVerticalScrollBarPolicy(a.vertical);
            }
    }
    ScrollBarsOff(const ScrollBarsOff&) = delete;
    ScrollBarsOff& operator=(const ScrollBarsOff&) = delete;

private:
    struct Area {
        QPointer<QAbstractScrollArea> area;
        Qt::ScrollBarPolicy horizontal;
        Qt::ScrollBarPolicy vertical;
    };
    std::vector<Area> m_areas;
};

} // namespace

QString saveFile(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return tr("%1: %2").arg(path, file.errorString());
    return {};
}

QString saveChart(const ChartView& chart, const QString& path, QSize size, double scale, bool captioned) {
    const std::optional<ImageFormat> format = imageFormatForPath(path);
    if (!format)
        return unknownFormat(path);
    const QByteArray bytes = chart.renderAs(*format, size, scale, captioned);
    if (bytes.isEmpty())
        return tr("%1: could not render the chart").arg(path);
    return saveFile(path, bytes);
}

QString savePage(QWidget& page, const QString& path, QSize size, double scale, QWidget* controls,
                 const QString& caption) {
    const std::optional<ImageFormat> format = imageFormatForPath(path);
    if (!format)
        return unknownFormat(path);
    const bool controlsShown = controls && !controls->isHidden();
    if (controlsShown)
        controls->hide();
    // A page on screen gets its size back (the caption's line came off its height for the picture); one
    // laid out for the picture alone keeps the size it was given.
    const bool onScreen = page.isVisible();
    const QSize screenSize = page.size();
    QByteArray bytes;
    {
        const ScrollBarsOff noScrollBars(page);
        bytes = renderWidget(page, *format, size, scale, caption);
    }
    if (controlsShown)
        controls->show();
    if (onScreen)
        page.resize(screenSize);
    if (bytes.isEmpty())
        return tr("%1: could not render the page").arg(path);
    return saveFile(path, bytes);
}
