// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The roofline (Williams, Waterman & Patterson, CACM 2009): attainable FLOP/s against arithmetic
// intensity (FLOPs per byte), both axes logarithmic. The roof min(peak, intensity × bandwidth) of one
// device and arithmetic, its ridge point marked and labelled, and points placed on it: measured GEMMs and
// analytic kernels, each with its own label and hover text. The page decides what a point means (its
// style flags and text); the chart only maps them.
#include "widgets/charts/chart_view.h"

#include <QSize>
#include <QString>

#include <algorithm>
#include <optional>
#include <vector>

class QMouseEvent;
class QResizeEvent;

/// What the chart shows, as plain values; tests read it back through data().
struct RooflineChartData {
    struct Roof {
        double peakFlopsPerSecond = 0;      ///< the flat roof
        double bandwidthBytesPerSecond = 0; ///< the slanted roof's slope
        QString name;                       ///< "H100-SXM bf16 (datasheet)"
        double ridgeFlopsPerByte() const {
            return bandwidthBytesPerSecond > 0 ? peakFlopsPerSecond / bandwidthBytesPerSecond : 0;
        }
        double attainableAt(double flopsPerByte) const {
            return std::min(peakFlopsPerSecond, flopsPerByte * bandwidthBytesPerSecond);
        }
    };
    enum class Style {
        measured,  ///< measured on the roof's device: a filled circle
        aboveRoof, ///< above its roof: a red cross (a measurement or unit error)
        otherRoof, ///< measured where this roof does not apply: a grey circle
        analytic   ///< a model's prediction (inference decode, prefill): a diamond
    };
    struct Point {
        double flopsPerByte = 0;
        double flopsPerSecond = 0;
        QString label;   ///< drawn beside the point: "n=1024 bf16", "decode"
        QString tooltip; ///< shown on hover: the numbers and where they come from
        Style style = Style::measured;
    };
    std::optional<Roof> roof; ///< none: no roof drawn, `note` says why
    QString note;             ///< drawn in the plot's top-left corner ("this CPU: not measured")
    std::vector<Point> points;
};

class RooflineChart : public ChartView {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    ~RooflineChart() override;

    /// Replaces everything at once and queues one replot.
    void setData(const RooflineChartData& data);
    const RooflineChartData& data() const { return m_data; }

    /// The index of the point drawn within `radius` pixels of `pixel` (the nearest), or -1.
    int pointAt(QPointF pixel, double radius = 12) const;
    /// The text drawn by the ridge marker ("ridge 295 FLOP/B"); empty without a roof.
    QString ridgeLabel() const;

protected:
    void applySeriesColors() override { rebuild(); }
    void resizeEvent(QResizeEvent* event) override;

private:
    void onMouseMove(QMouseEvent* event);
    void rebuild();
    void placeLabels(double left, double right, double bottom, double top, const QColor& text);

    RooflineChartData m_data;
    QSize m_labelsPlacedFor; ///< the axes' size the labels were last placed for
};
