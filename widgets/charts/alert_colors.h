// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: the red of a warning (a peak, a limit, "does not fit") and the green of
// "fits", drawn as text on the plot's background. On a dark palette the light-theme shades fall under
// WCAG AA's 4.5:1 (#C0392B is 3.9:1 on #1E1F22, #2E7D32 4:1 on black), so a lighter shade of each is used.
#include <QColor>
#include <QPalette>

/// Whether the plot's background (the palette's Base) is dark.
inline bool darkBackground(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128;
}

/// Red: 5.4:1 on white; #EF5350, 6:1 on black.
inline QColor alertColor(const QPalette& palette) {
    return darkBackground(palette) ? QColor(0xef, 0x53, 0x50) : QColor(0xc0, 0x39, 0x2b);
}

/// Green: 5.1:1 on white; #66BB6A, 8.9:1 on black.
inline QColor okColor(const QPalette& palette) {
    return darkBackground(palette) ? QColor(0x66, 0xbb, 0x6a) : QColor(0x2e, 0x7d, 0x32);
}
