// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/chart_view.h"

// A chart that no longer matches the controls (the page keeps its last valid result while an input is
// invalid) says so over itself: a veil in the window's colour greys the plot and carries the reason, so a
// room never reads the previous GPU's chart as the current one.
#include <QLabel>
#include <QPalette>
#include <QResizeEvent>

void ChartView::setStale(const QString& reason) {
    if (reason.isEmpty()) {
        if (m_staleVeil)
            m_staleVeil->hide();
        return;
    }
    if (!m_staleVeil) {
        m_staleVeil = new QLabel(this);
        m_staleVeil->setObjectName(QStringLiteral("staleVeil"));
        m_staleVeil->setAlignment(Qt::AlignCenter);
        m_staleVeil->setWordWrap(true);
        m_staleVeil->setMargin(12);
        m_staleVeil->setAutoFillBackground(true);
        applyStalePalette();
    }
    m_staleVeil->setText(tr("Not the current setup — %1").arg(reason));
    m_staleVeil->setGeometry(rect());
    m_staleVeil->raise();
    m_staleVeil->show();
}

QString ChartView::staleReason() const {
    if (!m_staleVeil || m_staleVeil->isHidden())
        return {};
    return m_staleVeil->text();
}

// Three quarters of the window's colour over the plot: the bars and lines show through, greyed, and the
// reason in the window's text colour reads above them, light or dark.
void ChartView::applyStalePalette() {
    if (!m_staleVeil)
        return;
    QColor veil = palette().color(QPalette::Window);
    veil.setAlpha(192);
    QPalette p = m_staleVeil->palette();
    p.setColor(QPalette::Window, veil);
    p.setColor(QPalette::WindowText, palette().color(QPalette::WindowText));
    m_staleVeil->setPalette(p);
}

void ChartView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_staleVeil)
        m_staleVeil->setGeometry(rect());
}
