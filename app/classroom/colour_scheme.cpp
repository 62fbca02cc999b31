// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/colour_scheme.h"

#include "app/classroom/visible_edges_style.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace {

// What the application looked like before the first switch, to go back to it exactly.
struct StartingLook {
    QString style;
    QPalette palette;
};

const StartingLook& startingLook() {
    static const StartingLook look{QApplication::style() ? QApplication::style()->name() : QString(),
                                   QApplication::palette()};
    return look;
}

} // namespace

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe8, 0xe8, 0xe8);
    const QColor disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x55, 0x55));
    p.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3c, 0x3f));
    // Mid edges check boxes and fields (VisibleEdgesStyle): 4.9:1 on Base, past WCAG's 3:1 for outlines.
    p.setColor(QPalette::Mid, QColor(0x8a, 0x8c, 0x90));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x1a));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6a, 0xb0, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

void applyDarkPalette(bool dark) {
    const StartingLook& start = startingLook();
    if (dark) {
        QApplication::setStyle(new VisibleEdgesStyle(QStyleFactory::create(QStringLiteral("Fusion"))));
        QApplication::setPalette(darkPalette());
    } else {
        if (!start.style.isEmpty())
            QApplication::setStyle(QStyleFactory::create(start.style));
        QApplication::setPalette(start.palette);
    }
}
