// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/training/lesson_export.h"

#include "app/export/file_dialogs.h"
#include "app/export/save_file.h"
#include "widgets/charts/series_chart.h"

#include <QMessageBox>

namespace {
QString askPath(QWidget* parent, const QString& suggestedName) {
    return chooseSaveFile(parent, QObject::tr("Export PNG"), suggestedName + QStringLiteral(".png"),
                          QObject::tr("PNG images (*.png)"));
}
QString report(QWidget* parent, const QString& error) {
    if (!error.isEmpty())
        QMessageBox::warning(parent, QObject::tr("Export PNG"), error);
    return error;
}
} // namespace

QString exportLessonChart(QWidget* parent, SeriesChart& chart, const QString& suggestedName) {
    const QString path = askPath(parent, suggestedName);
    if (path.isEmpty())
        return {};
    const QSize size = chart.size().expandedTo(QSize(800, 500));
    return report(parent, saveChart(chart, path, size, 2.0));
}

QString exportLessonWidget(QWidget* parent, QWidget& widget, const QString& suggestedName) {
    const QString path = askPath(parent, suggestedName);
    if (path.isEmpty())
        return {};
    return report(parent, savePage(widget, path, widget.size(), 2.0));
}
