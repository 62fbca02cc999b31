// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/panel_scroll_area.h"

#include <QEvent>
#include <QScrollBar>

#include <algorithm>

PanelScrollArea::PanelScrollArea(QWidget* content, QWidget* parent)
    : QScrollArea(parent) {
    setWidget(content);
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    content->installEventFilter(this);
}

QSize PanelScrollArea::minimumSizeHint() const {
    const QSize base = QScrollArea::minimumSizeHint();
    if (!widget())
        return base;
    const int width =
        widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
    return {std::max(base.width(), width), base.height()};
}

QSize PanelScrollArea::sizeHint() const {
    const QSize base = QScrollArea::sizeHint();
    return {std::max(base.width(), minimumSizeHint().width()), base.height()};
}

bool PanelScrollArea::eventFilter(QObject* watched, QEvent* event) {
    // The content's minimum changed (a font, a row shown or hidden): the panel's minimum follows.
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}
