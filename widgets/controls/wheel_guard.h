// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A mouse wheel turned over a long control panel means "scroll the panel": a combo box or spin box that
// happens to pass under the pointer must not change (adamw silently became sgd). Such a control takes
// the wheel only once it has focus (a click or Tab), and otherwise hands the turn to the scroll area
// around it.
#include <QObject>

class QWidget;

class WheelGuard : public QObject {
    Q_OBJECT
public:
    explicit WheelGuard(QObject* parent = nullptr);

    /// Guards every combo box, spin box and slider inside `root` (present now): strong focus, so that a
    /// wheel turn cannot focus them either, and this filter.
    void guard(QWidget& root);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};
