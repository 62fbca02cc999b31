// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFocusEvent>
#include <QScrollBar>
#include <QWheelEvent>

namespace {

constexpr const char* kArmed = "napkinWheelArmed";

} // namespace

WheelGuard::WheelGuard(QObject* parent)
    : QObject(parent) {}

void WheelGuard::guard(QWidget& root) {
    for (QWidget* w : root.findChildren<QWidget*>()) {
        // A scroll area's own scroll bars are the panel's, not a control's.
        if (qobject_cast<QScrollBar*>(w))
            continue;
        if (qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w) ||
            qobject_cast<QAbstractSlider*>(w)) {
            w->setFocusPolicy(Qt::StrongFocus);
            w->removeEventFilter(this); // guarding twice filters once
            w->installEventFilter(this);
        }
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    auto* control = qobject_cast<QWidget*>(watched);
    if (!control)
        return QObject::eventFilter(watched, event);
    // Focus the user gave (a click, Tab, a mnemonic) arms the control for the wheel; focus a window hands
    // its first control when it opens does not.
    if (event->type() == QEvent::FocusIn) {
        const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
        control->setProperty(kArmed, reason == Qt::MouseFocusReason || reason == Qt::TabFocusReason ||
                                         reason == Qt::BacktabFocusReason ||
                                         reason == Qt::ShortcutFocusReason);
    } else if (event->type() == QEvent::FocusOut) {
        control->setProperty(kArmed, false);
    }
    if (event->type() != QEvent::Wheel || (control->hasFocus() && control->property(kArmed).toBool()))
        return QObject::eventFilter(watched, event);
    // Sent on explicitly rather than left to propagate: Qt does not propagate a wheel event that was
    // sent (not spontaneous), and the nearest scroll area is the panel the user meant.
    for (QWidget* w = control->parentWidget(); w; w = w->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
            QCoreApplication::sendEvent(area->viewport(), event);
            break;
        }
    return true;
}
