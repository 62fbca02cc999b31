// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The preset box's entry for a config.json the user opened (File ▸ Open model config… or a drop), one
// way for the Accounting and Inference pages: listed under an "Opened" header, with empty data (no preset
// id) and its name kept in kPresetNameRole while the shown text may say "(modified)".
#include <Qt>

class QComboBox;
class QString;

/// The role that holds an entry's name as listed.
constexpr int kPresetNameRole = Qt::UserRole + 1;

/// The opened config's entry in `box`, or -1 when none was opened.
int openedModelIndex(const QComboBox* box);
/// Names that entry `label`, adding it under "Opened" the first time; its index.
int showOpenedModelEntry(QComboBox* box, const QString& label);
