#include "app/chart_export.h"

#include "app/accounting_page.h"
#include "widgets/flop_chart.h"
#include "widgets/memory_chart.h"

#include <QCoreApplication>
#include <QPixmap>
#include <QSaveFile>

QString exportChartPng(AccountingPage& page, ChartKind chart, const QString& path, QSize size, double scale) {
    const QPixmap pixmap = chart == ChartKind::memory ? page.memoryChart()->render(size.width(), size.height(), scale)
                                                      : page.flopChart()->render(size.width(), size.height(), scale);
    if (pixmap.isNull())
        return QCoreApplication::translate("ChartExport", "could not render the chart");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("ChartExport", "%1: %2").arg(path, file.errorString());
    if (!pixmap.save(&file, "PNG"))
        return QCoreApplication::translate("ChartExport", "%1: could not encode PNG").arg(path);
    if (!file.commit())
        return QCoreApplication::translate("ChartExport", "%1: %2").arg(path, file.errorString());
    return {};
}
