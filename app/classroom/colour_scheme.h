// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Light or dark, for the whole application: the dark palette uses the Fusion style so it looks the
// same on every desktop (and can be shown and screenshot without a desktop theme).
#include <QPalette>

/// A dark palette with readable disabled text and a blue highlight.
QPalette darkPalette();
/// True when the palette's window colour is dark.
bool isDarkPalette(const QPalette& palette);
/// Switches to Fusion + darkPalette(), or back to the style and palette the application started with.
void applyDarkPalette(bool dark);
