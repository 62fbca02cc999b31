#pragma once
// The training loss per step (a line). QCustomPlot stays in the .cpp.
#include <QPixmap>
#include <QWidget>

#include <vector>

class QCustomPlot;

class LossChart : public QWidget {
    Q_OBJECT
public:
    explicit LossChart(QWidget* parent = nullptr);
    ~LossChart() override;

    /// losses[i] is the loss of step i + 1; queues one replot.
    void setLosses(const std::vector<double>& losses);
    const std::vector<double>& losses() const { return m_losses; }
    QPixmap render(int width, int height, double scale = 1.0);
    /// For SVG and PDF export (widgets/plot_export.h).
    QCustomPlot* plot() const { return m_plot; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyColors();

    QCustomPlot* m_plot;
    std::vector<double> m_losses;
};
