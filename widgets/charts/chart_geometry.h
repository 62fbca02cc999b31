// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: where QCustomPlot drew things, in pixels, for ChartView's layout report and
// its tick fitting. The boxes along a graph's line and a bar's box (what a legend or a label must not
// cover), an axis title past the chart's edges, and tick labels that run into their neighbours.
#include <qcustomplot.h>

#include <QRect>
#include <QSize>
#include <QStringList>

#include <vector>

/// Small boxes along a graph's line (or at its points when it draws none), inside `clip`.
void addGraphBoxes(const QCPGraph& graph, const QRect& clip, std::vector<QRect>& out);
/// Each non-zero bar's box, inside `clip`.
void addBarBoxes(const QCPBars& bars, const QRect& clip, std::vector<QRect>& out);
/// An axis title is centred on its axis; it is cut when it reaches past the chart's edges.
bool axisTitleCut(const QCPAxis& axis, const QSize& chart);

/// Neighbouring tick labels closer than `gap` pixels ("1.5 GB / 1.75 GB"), for `ticks` and their `labels`
/// on `axis` as it is laid out now, in its tick label font and rotation. A negative gap tolerates that
/// much overlap of the text boxes (their leading, not their ink).
QStringList crowdedTickLabels(const QCPAxis& axis, const QVector<double>& ticks,
                              const QVector<QString>& labels, double gap);
/// Tick labels the axis drew at its last replot that overlap (boxes touching are not overlapping).
QStringList crowdedTickLabels(const QCPAxis& axis);
/// The tick labels of a horizontal axis that reach past the chart's left or right edge: QCustomPlot leaves
/// such a label out altogether.
QStringList tickLabelsPastEdges(const QCPAxis& axis, int chartWidth);
/// How far, in pixels, the tick labels of a horizontal axis as last drawn reach past its axes' right edge
/// (half of "100000" under the roofline's last decade); 0 when none does.
int tickLabelOverhang(const QCPAxis& axis);
/// Sets the axis ticker's tick count to the largest, up to `most`, whose labels keep half a line (or two
/// characters along the axis) apart at its current length and font (at least 2). A text ticker (named
/// categories) keeps its labels and turns them instead (fitTickRotation).
void fitTickCount(QCPAxis& axis, int most);
/// For named categories (a text ticker) on a horizontal axis: the least turn, from the one the chart chose
/// up to 90° (turned counter-clockwise, so that each label ends at its tick), at which neighbouring labels
/// stop overlapping (DeepSeek-V3's nine FLOP components at 1024×768 overlapped at 30°). The chart's own angle
/// is kept as the least, so a wider chart turns back.
void fitTickRotation(QCPAxis& axis);
/// The width `columns` columns of the legend's entries need, each column as wide as its widest entry.
int legendWidth(const QCPLegend& legend, int columns);
/// Wraps the legend's entries (row by row) into the most columns, up to `most`, that fit `width` pixels side
/// by side (1 when even two do not); whether that changed its columns.
bool fitLegendColumns(QCPLegend& legend, int most, int width);
/// The height of the rows the legend takes beyond those it would in the `asked` columns (0 when as asked).
int extraLegendHeight(const QCPLegend& legend, int asked);
/// Whether the legend as laid out is narrower than its entries need: their names are drawn cut.
bool legendCut(const QCPLegend& legend);
/// A label whose position is the axes' left edge (a capacity's "usable 85.52 GB"), its text set this many
/// pixels into the axes by its padding: whatever the x range and the chart's width, it stands off the y
/// axis (at 0.03 of a narrow chart's range it began on the axis line).
void standOffTheYAxis(QCPItemText& label);
