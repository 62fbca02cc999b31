// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fusion draws the edge of a check box, a radio button and an input field in the window colour made
// 40% darker: on the dark palette that is near-black on a near-black field, so an unticked box and an
// empty field could not be seen on a projector (issue 35). This style draws those edges again in the
// palette's Mid colour, chosen to stand out from the field (WCAG's 3:1 for a control's outline).
#include <QProxyStyle>

class VisibleEdgesStyle : public QProxyStyle {
    Q_OBJECT
public:
    /// Wraps (and owns) `base`, e.g. QStyleFactory::create("Fusion").
    explicit VisibleEdgesStyle(QStyle* base);

    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget = nullptr) const override;
    void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option, QPainter* painter,
                            const QWidget* widget = nullptr) const override;
};
