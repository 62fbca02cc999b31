#include "app/export/save_file.h"

#include "widgets/charts/chart_view.h"
#include "widgets/charts/image_format.h"

#include <QCoreApplication>
#include <QSaveFile>

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("SaveFile", text);
}

QString unknownFormat(const QString& path) {
    return tr("%1: the name must end in .png, .svg or .pdf").arg(path);
}

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

QString savePage(QWidget& page, const QString& path, QSize size, double scale, QWidget* controls) {
    const std::optional<ImageFormat> format = imageFormatForPath(path);
    if (!format)
        return unknownFormat(path);
    const bool controlsShown = controls && !controls->isHidden();
    if (controlsShown)
        controls->hide();
    const QByteArray bytes = renderWidget(page, *format, size, scale);
    if (controlsShown)
        controls->show();
    if (bytes.isEmpty())
        return tr("%1: could not render the page").arg(path);
    return saveFile(path, bytes);
}
