// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/visible_edges_style.h"

#include <QPainter>
#include <QStyleOption>

namespace {

void drawEdge(const QStyleOption& option, QPainter& painter, bool round) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, round);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(option.palette.color(QPalette::Mid), 1));
    const QRectF edge = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5);
    if (round)
        painter.drawEllipse(edge);
    else
        painter.drawRect(edge);
    painter.restore();
}

} // namespace

VisibleEdgesStyle::VisibleEdgesStyle(QStyle* base)
    : QProxyStyle(base) {}

void VisibleEdgesStyle::drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                                      const QWidget* widget) const {
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    if (!option || !painter)
        return;
    switch (element) {
    case PE_IndicatorCheckBox:
    case PE_IndicatorItemViewItemCheck:
        drawEdge(*option, *painter, false);
        break;
    case PE_IndicatorRadioButton:
        drawEdge(*option, *painter, true);
        break;
    case PE_FrameLineEdit:
        drawEdge(*option, *painter, false);
        break;
    default:
        break;
    }
}

void VisibleEdgesStyle::drawComplexControl(ComplexControl control, const QStyleOptionComplex* option,
                                           QPainter* painter, const QWidget* widget) const {
    QProxyStyle::drawComplexControl(control, option, painter, widget);
    if (!option || !painter)
        return;
    // A spin box and an editable combo box are fields too; Fusion draws their frames itself.
    const bool editableCombo = control == CC_ComboBox &&
                               qstyleoption_cast<const QStyleOptionComboBox*>(option) &&
                               qstyleoption_cast<const QStyleOptionComboBox*>(option)->editable;
    if ((control == CC_SpinBox && option->subControls & SC_SpinBoxFrame) || editableCombo)
        drawEdge(*option, *painter, false);
}
