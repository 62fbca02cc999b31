// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/wheel_to_page.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

WheelToPage::WheelToPage(QObject* parent)
    : QObject(parent) {}

bool WheelToPage::eventFilter(QObject* watched, QEvent* event) {
    auto* chart = qobject_cast<QWidget*>(watched);
    if (!chart || event->type() != QEvent::Wheel)
        return QObject::eventFilter(watched, event);
    // Sent on explicitly rather than ignored: Qt propagates only a spontaneous wheel event, and the
    // nearest scroll area is the page the user meant. Outside any scroll area the turn does nothing.
    for (QWidget* w = chart->parentWidget(); w; w = w->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
            QCoreApplication::sendEvent(area->viewport(), event);
            break;
        }
    return true;
}
