// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/hardware/user_gpu_catalog_file.h"

#include "app/export/save_file.h"
#include "engine/hardware/gpu_catalog_writer.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QStandardPaths>

namespace {

// An id as a file name: the characters a shell and every file system take as they are.
QString fileNameOf(const QString& id) {
    QString name;
    for (const QChar c : id)
        name += (c.isLetterOrNumber() && c.unicode() < 128) || c == u'-' || c == u'_' || c == u'.' ? c : u'_';
    return name;
}

} // namespace

UserGpuCatalogFile userGpuCatalogFile(const napkin::GpuSpec& gpu) {
    const QByteArray text = QByteArray::fromStdString(napkin::gpuCatalogJson({gpu}));
    const QString digest =
        QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex().left(12));
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/gpu-catalogs");
    if (!QDir().mkpath(folder))
        return {
            {},
            QCoreApplication::translate("UserGpuCatalogFile", "%1: could not create the folder").arg(folder)};
    const QString path = folder + QLatin1Char('/') + fileNameOf(QString::fromStdString(gpu.id)) +
                         QLatin1Char('-') + digest + QStringLiteral(".json");
    if (const QString error = saveFile(path, text); !error.isEmpty())
        return {{}, error};
    return {path, {}};
}
