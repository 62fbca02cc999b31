// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Presentation mode of a main window: full screen, a larger font, thicker chart lines and a
// high-contrast palette (black on white, or white on black under a dark palette). Turning it off
// gives the window back its inherited font and palette and its previous geometry.
#include <QObject>
#include <QPalette>
#include <QRect>

class QWidget;

/// Pure black and white text and backgrounds, keeping `base`'s lightness (so dark stays dark).
QPalette presentationPalette(const QPalette& base);

class PresentationMode : public QObject {
    Q_OBJECT
public:
    /// Font growth factor in presentation mode (readable from the back of a room).
    static constexpr double kFontScale = 1.45;
    /// Chart line width factor.
    static constexpr double kLineScale = 2.5;

    explicit PresentationMode(QWidget* window);

    bool isOn() const { return m_on; }
    void setOn(bool on);
    /// Re-derives the high-contrast palette after the application palette changed (light ↔ dark).
    void refreshPalette();

signals:
    void toggled(bool on);

private:
    QWidget* m_window;
    bool m_on = false;
    bool m_wasMaximized = false;
    QRect m_normalGeometry; ///< the window's client area before full screen
};
