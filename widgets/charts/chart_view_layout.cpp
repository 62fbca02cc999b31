// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/chart_view.h"

// What a chart shows, read back for the layout and picture tests: its plot rectangle, legend, in-chart
// labels and their colours, straight rules, data boxes, and every text drawn cut or crowded.
#include "widgets/charts/chart_geometry.h"

#include <qcustomplot.h>

#include <cmath>

ChartLayout ChartView::layoutGeometry() const {
    ChartLayout out;
    QCPAxisRect* axes = m_plot->axisRect();
    out.axisRect = axes->rect();
    out.axisTitles = {m_plot->xAxis->label(), m_plot->yAxis->label()};
    // A layout that gave the chart less than the plot's minimum: the plot keeps its size and is drawn cut
    // at the chart's edge (an axis title lost its last line).
    if (m_plot->height() > height() || m_plot->width() > width())
        out.cutText << QStringLiteral("the plot past the chart's %1 × %2").arg(width()).arg(height());
    if (m_plot->legend->visible() && m_plot->legend->itemCount() > 0) {
        out.legend = m_plot->legend->outerRect();
        out.legendInsideAxes = axes->insetLayout()->elements(false).contains(m_plot->legend);
        if (legendCut(*m_plot->legend))
            out.cutText << QStringLiteral("the legend's entries");
        if (out.legend.bottom() >= m_plot->height())
            out.cutText << QStringLiteral("the legend's last row");
    }
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        const auto* text = qobject_cast<QCPItemText*>(m_plot->item(i));
        if (!text || !text->visible() || text->text().isEmpty())
            continue;
        const QRect r = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                            .normalized()
                            .toAlignedRect();
        out.labels.push_back(r);
        out.labelColors.push_back(text->color());
        out.labelTexts << text->text();
        const QMargins pad = text->padding();
        out.labelTextBoxes.push_back(r.adjusted(pad.left(), pad.top(), -pad.right(), -pad.bottom()));
        if (text->clipToAxisRect() ? !out.axisRect.contains(r) : !m_plot->rect().contains(r))
            out.cutText << text->text();
    }
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        const auto* line = qobject_cast<QCPItemStraightLine*>(m_plot->item(i));
        if (!line || !line->visible())
            continue;
        const QPointF a = line->point1->pixelPosition(), b = line->point2->pixelPosition();
        if (std::abs(a.y() - b.y()) < 0.5) // across: the capacity lines are horizontal
            out.rules.emplace_back(out.axisRect.left(), qRound(a.y()), out.axisRect.right(), qRound(a.y()));
        else if (std::abs(a.x() - b.x()) < 0.5)
            out.rules.emplace_back(qRound(a.x()), out.axisRect.top(), qRound(a.x()), out.axisRect.bottom());
    }
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        const QCPAbstractPlottable* p = m_plot->plottable(i);
        if (!p->visible())
            continue;
        if (const auto* bars = qobject_cast<const QCPBars*>(p))
            addBarBoxes(*bars, out.axisRect, out.data);
        else if (const auto* graph = qobject_cast<const QCPGraph*>(p))
            addGraphBoxes(*graph, out.axisRect, out.data);
    }
    for (QCPAxis* axis : axes->axes()) {
        if (axisTitleCut(*axis, m_plot->size()))
            out.cutText << axis->label();
        out.crowdedTicks << crowdedTickLabels(*axis);
        for (const QString& label : tickLabelsPastEdges(*axis, m_plot->width()))
            out.cutText << QStringLiteral("tick label ") + label;
    }
    return out;
}
