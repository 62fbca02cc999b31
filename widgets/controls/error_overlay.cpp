// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/error_overlay.h"

#include <QAbstractScrollArea>
#include <QEvent>

#include <algorithm>

ErrorOverlay::ErrorOverlay(QWidget* anchor)
    : QLabel(anchor)
    , m_anchor(anchor) {
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Over other controls: its own background and a thin frame, red text through the palette (a style
    // sheet would pin the font, and presentation mode's type would pass it by).
    setAutoFillBackground(true);
    setFrameShape(QFrame::Box);
    setMargin(2);
    QPalette red = palette();
    red.setColor(QPalette::WindowText, QColor(0xc0, 0x39, 0x2b));
    setPalette(red);
    hide();
}

QWidget* ErrorOverlay::host() const {
    QWidget* w = m_anchor;
    while (QWidget* parent = w->parentWidget()) {
        if (qobject_cast<QAbstractScrollArea*>(parent->parentWidget()) && !w->isWindow())
            return w; // the content widget of a scroll area's viewport: it scrolls with the field
        if (w->isWindow())
            return w;
        w = parent;
    }
    return w;
}

void ErrorOverlay::watchAncestors(QWidget* host) {
    for (const QPointer<QWidget>& w : m_watched)
        if (w)
            w->removeEventFilter(this);
    m_watched.clear();
    for (QWidget* w = m_anchor; w && w != host; w = w->parentWidget()) {
        w->installEventFilter(this);
        m_watched.append(w);
    }
}

void ErrorOverlay::showMessage(const QString& message) {
    setText(message);
    QWidget* target = host();
    if (parentWidget() != target) {
        setParent(target);
        watchAncestors(target);
    }
    place();
    show();
    raise();
}

void ErrorOverlay::clearMessage() {
    hide();
    clear();
}

void ErrorOverlay::place() {
    QWidget* target = parentWidget();
    if (!target)
        return;
    const QPoint at = target == m_anchor ? QPoint(0, m_anchor->height())
                                         : m_anchor->mapTo(target, QPoint(0, m_anchor->height() + 1));
    const int room = std::max(0, target->width() - at.x());
    const int width = std::min(room, std::max(m_anchor->width(), 260));
    setGeometry(at.x(), at.y(), width, heightForWidth(width));
}

bool ErrorOverlay::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::Move:
    case QEvent::Resize:
        if (isVisible())
            place();
        break;
    case QEvent::Hide:
        if (watched == m_anchor)
            hide();
        break;
    case QEvent::Show:
        if (watched == m_anchor && !text().isEmpty()) {
            place();
            show();
        }
        break;
    default:
        break;
    }
    return QLabel::eventFilter(watched, event);
}
