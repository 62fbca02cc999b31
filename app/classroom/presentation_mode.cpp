// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/presentation_mode.h"

#include "widgets/charts/chart_view.h"
#include "widgets/controls/combo_box_hints.h"

#include <QApplication>
#include <QCoreApplication>
#include <QEvent>
#include <QScreen>
#include <QWidget>

QPalette presentationPalette(const QPalette& base) {
    const bool dark = base.color(QPalette::Window).lightness() < 128;
    const QColor ink = dark ? Qt::white : Qt::black;
    const QColor paper = dark ? Qt::black : Qt::white;
    QPalette p = base;
    for (QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(group, QPalette::Window, paper);
        p.setColor(group, QPalette::Base, paper);
        p.setColor(group, QPalette::AlternateBase,
                   dark ? QColor(0x20, 0x20, 0x20) : QColor(0xf0, 0xf0, 0xf0));
        p.setColor(group, QPalette::Button, dark ? QColor(0x18, 0x18, 0x18) : QColor(0xf4, 0xf4, 0xf4));
        for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            p.setColor(group, role, ink);
        p.setColor(group, QPalette::PlaceholderText,
                   dark ? QColor(0xc8, 0xc8, 0xc8) : QColor(0x40, 0x40, 0x40));
        p.setColor(group, QPalette::Highlight, dark ? QColor(0xff, 0xd5, 0x4f) : QColor(0x00, 0x3c, 0x8f));
        p.setColor(group, QPalette::HighlightedText, dark ? Qt::black : Qt::white);
    }
    return p;
}

PresentationMode::PresentationMode(QWidget* window)
    : QObject(window)
    , m_window(window) {}

void PresentationMode::setOn(bool on) {
    if (on == m_on)
        return;
    m_on = on;
    if (on) {
        m_wasMaximized = m_window->isMaximized();
        m_normalGeometry = m_window->geometry();
        QFont big = QApplication::font();
        big.setPointSizeF(big.pointSizeF() * kFontScale);
        m_window->setFont(big);
        refreshComboBoxHints(*m_window);
        setChartLineScale(*m_window, kLineScale);
        m_window->setPalette(presentationPalette(QApplication::palette()));
        m_window->showFullScreen();
        // Without a window manager (a kiosk, Xvfb) nobody honours the full-screen request: ask for
        // the screen's geometry as well, which a window manager grants anyway.
        if (const QScreen* screen = m_window->screen())
            m_window->setGeometry(screen->geometry());
    } else {
        // A default QFont / QPalette has no resolved attributes: the window inherits the application's again.
        m_window->setFont(QFont());
        refreshComboBoxHints(*m_window);
        setChartLineScale(*m_window, 1.0);
        m_window->setPalette(QPalette());
        // The client area is put back where it was, rather than the saved frame: restoring a frame
        // geometry right after full screen added the title bar's height again (the window sat 20 px
        // lower, its bottom pane cut by the screen's edge).
        // The layouts take the normal font's minimum sizes first: with presentation mode's larger minimum
        // still in force the restored geometry would be clamped to it.
        for (int pass = 0; pass < 8; ++pass)
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (m_wasMaximized) {
            m_window->showMaximized();
        } else {
            m_window->showNormal();
            m_window->setGeometry(m_normalGeometry);
        }
    }
    emit toggled(on);
}

void PresentationMode::refreshPalette() {
    if (m_on)
        m_window->setPalette(presentationPalette(QApplication::palette()));
}
