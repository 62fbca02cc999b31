// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// WCAG 2's contrast ratio of two colours (relative luminance, sRGB), and the strongest contrast a drawn
// picture has against its background: the tests that hold text and edges to 4.5:1 (text) and 3:1 (edges).
#include <QColor>
#include <QImage>
#include <QRect>

#include <algorithm>
#include <cmath>

inline double contrast(const QColor& a, const QColor& b) {
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

/// The strongest contrast any pixel of `area` in `picture` has against `background`: an edge or a glyph's
/// stem drawn there shows, one in the background's own colour does not.
inline double strongestEdge(const QImage& picture, const QRect& area, const QColor& background) {
    double best = 1;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            if (picture.rect().contains(x, y))
                best = std::max(best, contrast(picture.pixelColor(x, y), background));
    return best;
}
