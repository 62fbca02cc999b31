// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/model_config_controller.h"

#include "app/accounting/accounting_page.h"
#include "app/document/recent_files.h"
#include "app/export/file_dialogs.h"
#include "app/inference/inference_page.h"
#include "engine/models/hf_config.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QUrl>

ModelConfigController::ModelConfigController(QMainWindow& window, AccountingPage& accounting,
                                             InferencePage& inference, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_accounting(accounting)
    , m_inference(inference) {}

void ModelConfigController::addActions(QMenu* menu) {
    QAction* open = menu->addAction(tr("Open &model config…"));
    open->setObjectName(QStringLiteral("openModelConfig"));
    open->setStatusTip(tr("Read a Hugging Face config.json as the model of the Accounting and Inference "
                          "pages (or drop one on the window)"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = chooseOpenFile(&m_window, tr("Open model config"),
                                            tr("Model configs (config.json *.json);;All files (*)"));
        if (!path.isEmpty())
            openModelConfig(path);
    });
}

QString ModelConfigController::openModelConfig(const QString& path) {
    const napkin::HfConfigResult read = napkin::readHfConfigFile(QFile::encodeName(path).toStdString());
    if (!read.ok()) {
        QString error = QString::fromStdString(read.error);
        showMessage(error);
        return error;
    }
    // "DeepSeek-V3/config.json (deepseek_v3)": files are all called config.json; their folder tells them
    // apart.
    const QFileInfo file(path);
    const QString folder = file.absoluteDir().dirName();
    const QString label =
        tr("%1 (%2)").arg(folder.isEmpty() ? file.fileName() : folder + QLatin1Char('/') + file.fileName(),
                          QString::fromStdString(read.config->modelType));
    m_opened =
        napkin::CommandModelBase{{"--config", QFile::encodeName(file.absoluteFilePath()).toStdString()},
                                 read.config->model,
                                 read.config->checkpointFormat.has_value()};
    m_accounting.setOpenedModelCommand(m_opened);
    m_inference.setOpenedModelCommand(m_opened);
    m_accounting.setOwnModel(read.config->model, label);
    m_inference.setOwnModel(read.config->model, label, read.config->checkpointFormat);
    m_window.statusBar()->showMessage(
        tr("Opened %1 as the model of the Accounting and Inference pages").arg(label), 8000);
    QSettings settings;
    RecentFiles::add(settings, path); // File ▸ Open recent opens it again
    return {};
}

QStringList ModelConfigController::droppedFiles(const QMimeData* mime) {
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    return paths;
}

void ModelConfigController::showMessage(const QString& text) {
    m_window.statusBar()->showMessage(tr("Model config not opened: %1").arg(text), 8000);
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Open model config"),
                        tr("Could not read the model config; the model was not changed.\n\n%1").arg(text),
                        QMessageBox::Ok, &m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("modelConfigMessage"));
    box->open(); // non-blocking: a drop or a test never waits on a click
}
