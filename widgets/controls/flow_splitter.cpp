// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/flow_splitter.h"

#include <QEvent>
#include <QResizeEvent>

#include <algorithm>

namespace {

// What a layout grants a pane at the least: its explicit minimum width, else its minimum size hint's.
int leastWidth(const QWidget* pane) {
    return pane->minimumWidth() > 0 ? pane->minimumWidth() : std::max(0, pane->minimumSizeHint().width());
}

} // namespace

FlowSplitter::FlowSplitter(QWidget* parent)
    : QSplitter(Qt::Horizontal, parent) {
    setChildrenCollapsible(false);
}

int FlowSplitter::sideBySideWidth() const {
    int width = 0;
    int shown = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget* pane = widget(i);
        if (pane->isHidden())
            continue;
        width += sideBySideWidthOf(i);
        ++shown;
    }
    return width + std::max(0, shown - 1) * handleWidth();
}

int FlowSplitter::sideBySideWidthOf(int index) const {
    const QWidget* pane = widget(index);
    const int columns = index < m_comfortableColumns.size() ? m_comfortableColumns[index] : 0;
    return std::max(leastWidth(pane), columns * pane->fontMetrics().averageCharWidth());
}

void FlowSplitter::setComfortableColumns(int index, int columns) {
    while (m_comfortableColumns.size() <= index)
        m_comfortableColumns.append(0);
    m_comfortableColumns[index] = columns;
    flowTo(width());
}

QSize FlowSplitter::minimumSizeHint() const {
    const QSize own = QSplitter::minimumSizeHint();
    if (orientation() == Qt::Vertical)
        return own;
    int widest = 0;
    for (int i = 0; i < count(); ++i)
        if (!widget(i)->isHidden())
            widest = std::max(widest, leastWidth(widget(i)));
    return {widest, own.height()};
}

void FlowSplitter::resizeEvent(QResizeEvent* event) {
    flowTo(event->size().width());
    QSplitter::resizeEvent(event);
}

// A pane's minimum changed (presentation mode's font widens the charts): flow again at the same width.
bool FlowSplitter::event(QEvent* event) {
    if (event->type() == QEvent::LayoutRequest)
        flowTo(width());
    return QSplitter::event(event);
}

void FlowSplitter::flowTo(int width) {
    const Qt::Orientation wanted = width >= sideBySideWidth() ? Qt::Horizontal : Qt::Vertical;
    if (wanted == orientation())
        return;
    setOrientation(wanted);
    updateGeometry(); // stacked panes need more height: the column above makes room or scrolls
}
