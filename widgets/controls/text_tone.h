// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The colour that says what kind of text a label holds (a secondary note, a caution, an alert), set
// through its palette and kept at WCAG AA's 4.5:1 on the window it inherits, light, dark or presentation
// mode's black and white. A style sheet's colour pinned the label's font as well, so presentation mode's
// larger type passed the label by (the Benchmarks page's notes stayed at 12 px beside 17 px text), and
// one fixed grey or amber fell under 4.5:1 on one of the palettes (grey 3.9:1 on white, #B35C00 4.45:1 on
// black).
class QLabel;

enum class TextTone {
    note,    ///< secondary: the palette's placeholder text
    caution, ///< amber: #A05000 (5.8:1 on white), #FFB74D on a dark window (7:1 on #353535)
    alert    ///< red: #C0392B (5.4:1 on white), #FF8A80 on a dark window (5.4:1 on #353535)
};

/// Draws `label`'s text in `tone` from now on, following the palette the label inherits; a later call
/// replaces the tone.
void setTextTone(QLabel* label, TextTone tone);
/// Draws `label`'s text in the window's own text colour again (a message that stopped being an error).
void clearTextTone(QLabel* label);
/// The label's text in bold, at the size it inherits (a style sheet's "font-weight: bold" pinned the size).
void setTextBold(QLabel* label, bool bold);
