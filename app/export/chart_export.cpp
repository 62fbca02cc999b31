#include "app/export/chart_export.h"

#include "app/accounting/accounting_page.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/plot_export.h"

#include <QCoreApplication>
#include <QPixmap>
#include <QSaveFile>
#include <QWidget>

QString exportChartPng(AccountingPage& page, ChartKind chart, const QString& path, QSize size, double scale) {
    const QPixmap pixmap = chart == ChartKind::memory ? page.memoryChart()->render(size.width(), size.height(), scale)
                                                      : page.flopChart()->render(size.width(), size.height(), scale);
    if (pixmap.isNull())
        return QCoreApplication::translate("ChartExport", "could not render the chart");
    return savePngAtomically(pixmap, path);
}

QString exportWidgetPng(QWidget& widget, const QString& path, QSize size, double scale) {
    widget.resize(size);
    widget.ensurePolished();
    if (!widget.isVisible()) { // lay the page out without showing it on any screen
        widget.setAttribute(Qt::WA_DontShowOnScreen);
        widget.show();
    }
    QCoreApplication::processEvents();
    QPixmap pixmap(size * scale);
    pixmap.setDevicePixelRatio(scale);
    pixmap.fill(widget.palette().color(QPalette::Window));
    widget.render(&pixmap);
    if (pixmap.isNull())
        return QCoreApplication::translate("ChartExport", "could not render the page");
    return savePngAtomically(pixmap, path);
}

QString savePngAtomically(const QPixmap& pixmap, const QString& path) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("ChartExport", "%1: %2").arg(path, file.errorString());
    if (!pixmap.save(&file, "PNG"))
        return QCoreApplication::translate("ChartExport", "%1: could not encode PNG").arg(path);
    if (!file.commit())
        return QCoreApplication::translate("ChartExport", "%1: %2").arg(path, file.errorString());
    return {};
}

namespace {

QString unknownFormat(const QString& path) {
    return QCoreApplication::translate("ChartExport", "%1: the name must end in .png, .svg or .pdf")
        .arg(path);
}

} // namespace

QString exportPlotFile(QCustomPlot& plot, const QString& path, QSize size, double scale) {
    const std::optional<ImageFormat> format = imageFormatForPath(path);
    if (!format)
        return unknownFormat(path);
    const QByteArray bytes = renderPlot(plot, *format, size, scale);
    if (bytes.isEmpty())
        return QCoreApplication::translate("ChartExport", "%1: could not render the chart").arg(path);
    return saveBytesAtomically(bytes, path);
}

QString exportWidgetFile(QWidget& widget, const QString& path, QSize size, double scale) {
    const std::optional<ImageFormat> format = imageFormatForPath(path);
    if (!format)
        return unknownFormat(path);
    const QByteArray bytes = renderWidget(widget, *format, size, scale);
    if (bytes.isEmpty())
        return QCoreApplication::translate("ChartExport", "%1: could not render the page").arg(path);
    return saveBytesAtomically(bytes, path);
}

QString saveBytesAtomically(const QByteArray& bytes, const QString& path) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("ChartExport", "%1: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size())
        return QCoreApplication::translate("ChartExport", "%1: %2").arg(path, file.errorString());
    if (!file.commit())
        return QCoreApplication::translate("ChartExport", "%1: %2").arg(path, file.errorString());
    return {};
}
