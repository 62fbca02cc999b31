#pragma once
// The dynamic range of float formats on a log axis: one horizontal bar per format from its smallest
// subnormal to its largest finite value (the subnormal stretch drawn paler), and the typed value
// marked. QCustomPlot is owned by composition and stays out of this header.
#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>

class QCustomPlot;

class DynamicRangeChart : public QWidget {
    Q_OBJECT
public:
    struct Bar {
        QString name;
        double minSubnormal = 0; ///< left end
        double minNormal = 0;    ///< where the subnormal stretch ends
        double max = 0;          ///< right end (largest finite)
    };

    explicit DynamicRangeChart(QWidget* parent = nullptr);
    ~DynamicRangeChart() override;

    /// One bar per entry, the first drawn at the top.
    void setBars(const QVector<Bar>& bars);
    QVector<Bar> bars() const { return m_bars; }
    /// Marks |value| with a vertical line; nullopt, 0, inf or NaN hide the mark (no place on a log axis).
    void setMarkedValue(std::optional<double> value);
    /// The magnitude currently marked, if any.
    std::optional<double> markedMagnitude() const { return m_marked; }
    QCustomPlot* plot() const { return m_plot; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    QCustomPlot* m_plot;
    QVector<Bar> m_bars;
    std::optional<double> m_marked;
};
