// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The app's open and save dialogs, which start in the folder the user last chose in any of them (issue 35:
// every dialog opened in the working folder, and each export meant walking back to the slides' folder).
// The folder is kept in QSettings, so it also holds from one session to the next.
#include <QString>

class QWidget;

/// QFileDialog::getSaveFileName starting at `suggestedName` in the last folder; "" when cancelled.
QString chooseSaveFile(QWidget* parent, const QString& title, const QString& suggestedName,
                       const QString& filter);
/// QFileDialog::getOpenFileName starting in the last folder; "" when cancelled.
QString chooseOpenFile(QWidget* parent, const QString& title, const QString& filter);

/// `fileName` in the last folder chosen; `fileName` alone (the dialog's own default) before any choice,
/// or when that folder is gone.
QString inLastFolder(const QString& fileName = {});
/// Remembers the folder of `chosenPath` (a file a dialog returned); an empty path (cancelled) changes
/// nothing.
void rememberFolderOf(const QString& chosenPath);
