// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/measured_run_graphs.h"

#include <qcustomplot.h>

#include <QCoreApplication>

#include <algorithm>

MeasuredRunGraphs::MeasuredRunGraphs(QCustomPlot& plot)
    : m_allocated(plot.addGraph())
    , m_reserved(plot.addGraph()) {
    for (QCPGraph* graph : {m_allocated, m_reserved}) {
        graph->setLineStyle(QCPGraph::lsLine);
        graph->removeFromLegend();
    }
}

void MeasuredRunGraphs::setCurve(const MeasuredRunCurve& curve) {
    const auto tr = [](const char* text) { return QCoreApplication::translate("MeasuredRunGraphs", text); };
    m_allocated->setData(curve.x, curve.allocated, true);
    const bool reserved = !curve.reserved.isEmpty() && curve.reserved.size() == curve.x.size();
    m_reserved->setData(reserved ? curve.x : QVector<double>{}, reserved ? curve.reserved : QVector<double>{},
                        true);
    m_allocated->setName(tr("measured allocated (%1)").arg(curve.label));
    m_reserved->setName(tr("measured reserved"));
    m_allocated->removeFromLegend();
    m_reserved->removeFromLegend();
    if (!curve.isEmpty())
        m_allocated->addToLegend();
    if (reserved)
        m_reserved->addToLegend();
    m_top = curve.peakAllocated();
    if (reserved)
        m_top = std::max(m_top, *std::max_element(curve.reserved.begin(), curve.reserved.end()));
}

void MeasuredRunGraphs::applyColors(const QPalette& palette) {
    const QColor text = palette.color(QPalette::WindowText);
    m_allocated->setPen(QPen(text, 2.2));
    m_reserved->setPen(QPen(text, 1.6, Qt::DashLine));
}
