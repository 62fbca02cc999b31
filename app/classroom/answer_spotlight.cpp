// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/answer_spotlight.h"

#include "widgets/charts/chart_view.h"

#include <QApplication>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>

void AnswerSpotlight::show(QWidget* widget) {
    clear();
    if (!widget)
        return;
    m_window = widget->window();
    m_window->installEventFilter(this);
    // A chart places its labels for the font it was drawn with and scales them in presentation mode
    // itself: it is brought into view, not enlarged.
    if (qobject_cast<ChartView*>(widget)) {
        m_chart = widget;
        bringIntoView();
        return;
    }
    m_widget = widget;
    m_hadOwnFont = widget->testAttribute(Qt::WA_SetFont);
    m_before = widget->font();
    QFont big = widget->font();
    big.setPointSizeF(big.pointSizeF() * kScale);
    widget->setFont(big);
    bringIntoView();
    // Once more after the page's own queued work (answers re-arranged for their new texts, charts
    // replotted), which can move the widget again.
    QMetaObject::invokeMethod(this, &AnswerSpotlight::bringIntoView, Qt::QueuedConnection);
}

void AnswerSpotlight::refresh() {
    bringIntoView();
    QMetaObject::invokeMethod(this, &AnswerSpotlight::bringIntoView, Qt::QueuedConnection);
}

void AnswerSpotlight::bringIntoView() {
    QWidget* target = m_widget ? m_widget.data() : m_chart.data();
    if (!target)
        return;
    // The page just came to the front with new values: lay it out now, so the scroll positions below are
    // computed from where the widget will be drawn, not where the last page had it.
    QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    // Innermost first: a panel that scrolls inside a page that scrolls.
    for (QWidget* w = target->parentWidget(); w; w = w->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(w);
            area && area->widget() && area->widget()->isAncestorOf(target)) {
            const bool known = std::any_of(m_scrolled.begin(), m_scrolled.end(),
                                           [area](const Scrolled& s) { return s.area == area; });
            if (!known)
                m_scrolled.push_back(
                    {area, area->horizontalScrollBar()->value(), area->verticalScrollBar()->value()});
            area->ensureWidgetVisible(target, 8, 8);
        }
}

bool AnswerSpotlight::eventFilter(QObject* watched, QEvent* event) {
    // After the window's layouts have followed the new size.
    if (watched == m_window && event->type() == QEvent::Resize)
        QMetaObject::invokeMethod(this, &AnswerSpotlight::bringIntoView, Qt::QueuedConnection);
    return QObject::eventFilter(watched, event);
}

void AnswerSpotlight::restoreScrolling() {
    for (const Scrolled& s : m_scrolled)
        if (s.area) {
            s.area->horizontalScrollBar()->setValue(s.x);
            s.area->verticalScrollBar()->setValue(s.y);
        }
    m_scrolled.clear();
}

void AnswerSpotlight::clear() {
    if (m_window)
        m_window->removeEventFilter(this);
    m_window = nullptr;
    m_chart = nullptr;
    if (!m_widget)
        return;
    if (m_hadOwnFont) {
        // The widget's own choices (bold, say) stay; its size follows the window's font again, so that a
        // widget enlarged in presentation mode does not keep presentation's size after it.
        QFont own = m_before;
        own.setResolveMask(m_before.resolveMask() & ~QFont::SizeResolved);
        m_widget->setFont(own);
    } else {
        m_widget->setFont(QFont()); // inherits everything again
    }
    m_widget = nullptr;
}
