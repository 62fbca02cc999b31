// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/predicted_reserved_graph.h"

#include <qcustomplot.h>

#include <QCoreApplication>

#include <algorithm>

PredictedReservedGraph::PredictedReservedGraph(QCustomPlot& plot)
    : m_graph(plot.addGraph()) {
    m_graph->setLineStyle(QCPGraph::lsStepLeft);
    m_graph->setName(QCoreApplication::translate("PredictedReservedGraph", "reserved (simulated allocator)"));
    m_graph->removeFromLegend();
}

void PredictedReservedGraph::setData(const QVector<int>& drawn, const QVector<double>& reserved) {
    QVector<double> x, y;
    m_top = 0;
    m_graph->removeFromLegend();
    for (int e : drawn) {
        if (e < 0 || e >= reserved.size()) {
            m_graph->setData(QVector<double>{}, QVector<double>{}, true);
            return;
        }
        x.push_back(e - 0.5);
        y.push_back(reserved[e]);
        m_top = std::max(m_top, reserved[e]);
    }
    if (!drawn.isEmpty()) { // the last block's right edge
        x.push_back(drawn.back() + 0.5);
        y.push_back(y.back());
    }
    m_graph->setData(x, y, true);
    if (!x.isEmpty())
        m_graph->addToLegend();
}

// A hue apart from the component areas and the measured run's lines (the palette's text): the link colour,
// which Qt's light and dark palettes both keep readable on their base.
void PredictedReservedGraph::applyColors(const QPalette& palette) {
    m_graph->setPen(QPen(palette.color(QPalette::Link), 2.0, Qt::DashDotLine));
}
