// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The File menu's export actions: each chart as PNG (2× for slides), SVG or PDF, the page in front as a
// picture, the accounting charts to the clipboard, and the numbers behind the accounting and formats
// charts as CSV or JSON. The window hands over its charts and its page tabs; nothing here knows a page.
#include <QObject>
#include <QString>

#include <functional>
#include <utility>

class ChartView;
class DynamicRangeChart;
class FlopChart;
class MemoryChart;
class QMenu;
class QTabWidget;
class QWidget;

/// The charts the window offers for export.
struct ExportableCharts {
    MemoryChart* memory = nullptr;
    FlopChart* flops = nullptr;
    DynamicRangeChart* ranges = nullptr;
    ChartView* throughput = nullptr;
    ChartView* loss = nullptr;
    ChartView* memoryTimeline = nullptr;   ///< the accounting page's memory over one step
    ChartView* trainingTimeline = nullptr; ///< a training run's predicted and measured step
    ChartView* inferenceMemory = nullptr;  ///< the inference page's memory bar
    ChartView* decodeThroughput = nullptr; ///< the inference page's tokens/s against batch
    ChartView* roofline = nullptr;
};

class ExportController : public QObject {
    Q_OBJECT
public:
    ExportController(QWidget* window, QTabWidget* pages, ExportableCharts charts, QObject* parent = nullptr);

    /// Adds the export actions to `menu`.
    void addActions(QMenu* menu);
    /// Where a page export gets its caption: the page in front's setup in one line.
    void setPageCaption(std::function<QString()> caption) { m_pageCaption = std::move(caption); }
    /// The page in front, as on screen at twice its resolution for slides, without its scroll bars and
    /// with its setup under it (File ▸ Export current page); returns an error message or "".
    QString exportCurrentPage(const QString& path);

private:
    void exportChart(const ChartView& chart, const QString& suggestedName);
    void chooseAndExportCurrentPage();
    void exportChartNumbers(int chart);
    QString imageFileFilter() const;

    QWidget* m_window;
    QTabWidget* m_pages;
    ExportableCharts m_charts;
    std::function<QString()> m_pageCaption;
};
