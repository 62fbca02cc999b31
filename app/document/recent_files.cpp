// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/document/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace {

const QString kKey = QStringLiteral("recentScenarios");

} // namespace

namespace RecentFiles {

QStringList list(const QSettings& settings) {
    return settings.value(kKey).toStringList();
}

void add(QSettings& settings, const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = list(settings);
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaximum)
        files.removeLast();
    settings.setValue(kKey, files);
}

void remove(QSettings& settings, const QString& path) {
    QStringList files = list(settings);
    files.removeAll(path);
    settings.setValue(kKey, files);
}

} // namespace RecentFiles
