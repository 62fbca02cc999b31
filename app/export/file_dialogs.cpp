// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/export/file_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace {

constexpr const char* kKey = "files/lastFolder";

} // namespace

QString inLastFolder(const QString& fileName) {
    const QString folder = QSettings().value(QLatin1String(kKey)).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        return fileName;
    return fileName.isEmpty() ? folder : QDir(folder).filePath(QFileInfo(fileName).fileName());
}

void rememberFolderOf(const QString& chosenPath) {
    if (chosenPath.isEmpty())
        return;
    QSettings().setValue(QLatin1String(kKey), QFileInfo(chosenPath).absolutePath());
}

QString chooseSaveFile(QWidget* parent, const QString& title, const QString& suggestedName,
                       const QString& filter) {
    QString path = QFileDialog::getSaveFileName(parent, title, inLastFolder(suggestedName), filter);
    rememberFolderOf(path);
    return path;
}

QString chooseOpenFile(QWidget* parent, const QString& title, const QString& filter) {
    QString path = QFileDialog::getOpenFileName(parent, title, inLastFolder(), filter);
    rememberFolderOf(path);
    return path;
}
