// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The numbers behind the accounting and number-format charts as CSV or JSON: every bar with its value
// in base units (bytes, FLOPs) and the formula that produced it, so a slide's figure can be re-checked.
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"

#include <QByteArray>
#include <QString>

/// Rows "series,name,value,unit,formula": memory segments, the total and the GPU's capacity.
QByteArray memoryChartCsv(const MemoryChartData& data);
QByteArray memoryChartJson(const MemoryChartData& data);
/// Rows "series,name,value,unit,formula": phases (forward, backward, recompute), then components.
QByteArray flopChartCsv(const FlopChartData& data);
QByteArray flopChartJson(const FlopChartData& data);
/// One row per format: smallest subnormal, smallest normal, largest finite.
QByteArray rangeChartCsv(const QVector<DynamicRangeChart::Bar>& bars);
QByteArray rangeChartJson(const QVector<DynamicRangeChart::Bar>& bars);
