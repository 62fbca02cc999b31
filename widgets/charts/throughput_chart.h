#pragma once
// Measured matmul throughput (FLOP/s) against matrix size n on a log axis, one series per dtype, with
// the device's promised peak per dtype as a dashed horizontal line. QCustomPlot stays in the .cpp.
#include <QPixmap>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QCustomPlot;
class QMouseEvent;

/// What the chart shows, as plain values; tests read it back through data().
struct ThroughputChartData {
    struct Point {
        double size = 0;           ///< n of the n×n×n GEMM
        double flops = 0;          ///< 2·n³
        double flopsPerSecond = 0; ///< measured (median)
        std::optional<double> mfu; ///< flopsPerSecond / promised
    };
    struct Series {
        QString dtype;             ///< "fp32", "fp64", ...
        std::vector<Point> points; ///< successful cases only, in size order
        std::optional<double> promisedFlopsPerSecond;
    };
    std::vector<Series> series;
    QString promisedBasis; ///< which peak the promise is (measured FMA loop or spec)
};

class ThroughputChart : public QWidget {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);
    ~ThroughputChart() override;

    /// Replaces all series at once and queues one replot.
    void setData(const ThroughputChartData& data);
    const ThroughputChartData& data() const { return m_data; }

    QString tooltipFor(const ThroughputChartData::Series& series, const ThroughputChartData::Point& point) const;
    /// Renders the chart at width × height logical pixels, `scale` device pixels per pixel.
    QPixmap render(int width, int height, double scale = 1.0);
    /// For SVG and PDF export (widgets/plot_export.h).
    QCustomPlot* plot() const { return m_plot; }

signals:
    void replotted();

protected:
    void changeEvent(QEvent* event) override;

private:
    void onMouseMove(QMouseEvent* event);
    void applyColors();
    void rebuild();

    QCustomPlot* m_plot;
    ThroughputChartData m_data;
};
