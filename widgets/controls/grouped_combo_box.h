// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A combo box whose entries are grouped under headers ("Llama", "Qwen", ...): a header is shown in the
// list in bold after a separator, but cannot be chosen; the arrow keys and the wheel step over it.
#include <QString>

class QComboBox;

/// Appends `title` as a header (after a separator unless it is the first item).
void addGroupHeader(QComboBox* box, const QString& title);
/// True for a header or a separator: an item that can never be the current entry by choice.
bool isGroupHeader(const QComboBox* box, int index);
