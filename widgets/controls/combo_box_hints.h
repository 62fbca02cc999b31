// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A QComboBox forgets its size hint when its font changes, but not its minimum size hint (Qt 6.4's
// QComboBox::changeEvent clears only the first on FontChange; a StyleChange clears both). After the
// window's font grows or shrinks (presentation mode) a box keeps the minimum width its items had at the
// old font: too narrow at the larger type, or, computed there first, too wide for the normal type, so
// that the control panel held presentation mode's width and squeezed the charts beside it, depending on
// when each box was first measured.
class QWidget;

/// Makes every combo box inside `root` measure its items again at its current font.
void refreshComboBoxHints(QWidget& root);
