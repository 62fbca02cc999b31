// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File ▸ Open model config… and a config.json dropped on the window: the engine's reader (the one
// napkin-cli's --config uses, engine/models/hf_config.h) turns a Hugging Face config.json into a
// model, which the Accounting and Inference pages then show. A file the reader refuses (truncated, wrong
// types, an unknown model_type, a tokenizer config, over 1 MiB, nested too deep) changes nothing: its
// one-line message is shown in a non-blocking message box and in the status bar.
#include "engine/report/cli_command_line.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

class AccountingPage;
class InferencePage;
class QMainWindow;
class QMenu;
class QMimeData;

class ModelConfigController : public QObject {
    Q_OBJECT
public:
    ModelConfigController(QMainWindow& window, AccountingPage& accounting, InferencePage& inference,
                          QObject* parent = nullptr);

    /// Adds "Open model config…" to `menu`.
    void addActions(QMenu* menu);
    /// Reads `path` and shows its model on both pages; returns the engine's message ("" when read).
    QString openModelConfig(const QString& path);
    /// The local files a drag carries, in order (a drag of anything else carries none).
    static QStringList droppedFiles(const QMimeData* mime);
    /// The config last opened, as napkin-cli names it (`--config PATH`, absolute) with the model it gives;
    /// null before one was.
    const napkin::CommandModelBase* openedConfig() const { return m_opened ? &*m_opened : nullptr; }

private:
    void showMessage(const QString& text);

    QMainWindow& m_window;
    AccountingPage& m_accounting;
    InferencePage& m_inference;
    std::optional<napkin::CommandModelBase> m_opened;
};
