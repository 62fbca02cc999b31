#include "app/chart_export.h"

#include "app/accounting_page.h"
#include "widgets/flop_chart.h"
#include "widgets/memory_chart.h"

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
