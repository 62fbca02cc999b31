// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A mouse wheel turned over a chart means "scroll the page": no chart zooms or pans with the wheel, yet
// the chart library accepts every wheel event, so a page whose charts filled the view could not be
// scrolled from them (issue 35, the tour at 1280×720). This filter hands the turn to the nearest scroll
// area around the chart.
#include <QObject>

class WheelToPage : public QObject {
    Q_OBJECT
public:
    explicit WheelToPage(QObject* parent = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};
