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
        width += leastWidth(pane);
        ++shown;
    }
    return width + std::max(0, shown - 1) * handleWidth();
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
