// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/export/export_controller.h"

#include "app/export/chart_data_export.h"
#include "app/export/file_dialogs.h"
#include "app/export/save_file.h"
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QTabWidget>

#include <utility>

namespace {

enum ChartNumbers { memoryNumbers, flopNumbers, rangeNumbers };

// Twice the on-screen resolution: a chart on a projected slide stays sharp.
constexpr QSize kSlideSize(1600, 900);
constexpr double kSlideScale = 2.0;

} // namespace

ExportController::ExportController(QWidget* window, QTabWidget* pages, ExportableCharts charts,
                                   QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_pages(pages)
    , m_charts(charts) {}

QString ExportController::imageFileFilter() const {
    return tr("PNG image, 2× for slides (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)");
}

void ExportController::addActions(QMenu* file) {
    QAction* memory = file->addAction(tr("Export &memory chart…"));
    connect(memory, &QAction::triggered, this, [this] { exportChart(*m_charts.memory, tr("memory.png")); });
    QAction* flops = file->addAction(tr("Export &FLOP chart…"));
    connect(flops, &QAction::triggered, this, [this] { exportChart(*m_charts.flops, tr("flops.png")); });
    QAction* timeline = file->addAction(tr("Export memory &timeline chart…"));
    connect(timeline, &QAction::triggered, this,
            [this] { exportChart(*m_charts.memoryTimeline, tr("memory-timeline.png")); });
    QAction* page = file->addAction(tr("Export current &page…"));
    page->setObjectName(QStringLiteral("exportPage"));
    connect(page, &QAction::triggered, this, &ExportController::chooseAndExportCurrentPage);
    QAction* copyMemory = file->addAction(tr("&Copy memory chart"));
    connect(copyMemory, &QAction::triggered, this, [this] {
        QApplication::clipboard()->setPixmap(
            m_charts.memory->render(kSlideSize.width(), kSlideSize.height(), kSlideScale));
    });
    QAction* copyFlops = file->addAction(tr("Copy FLOP c&hart"));
    connect(copyFlops, &QAction::triggered, this, [this] {
        QApplication::clipboard()->setPixmap(
            m_charts.flops->render(kSlideSize.width(), kSlideSize.height(), kSlideScale));
    });
    // The other pages' charts on their own, as the accounting charts above (the page export has them too).
    QMenu* charts = file->addMenu(tr("Export &other chart"));
    const std::pair<QString, std::pair<ChartView*, QString>> others[] = {
        {tr("Number-format ranges…"), {m_charts.ranges, QStringLiteral("ranges.png")}},
        {tr("Matmul throughput…"), {m_charts.throughput, QStringLiteral("throughput.png")}},
        {tr("Training loss…"), {m_charts.loss, QStringLiteral("loss.png")}},
        {tr("Training run's memory timeline…"),
         {m_charts.trainingTimeline, QStringLiteral("training-memory-timeline.png")}},
        {tr("Inference memory…"), {m_charts.inferenceMemory, QStringLiteral("inference-memory.png")}},
        {tr("Decode tokens/s against batch…"),
         {m_charts.decodeThroughput, QStringLiteral("decode-throughput.png")}},
        {tr("Roofline…"), {m_charts.roofline, QStringLiteral("roofline.png")}}};
    for (const auto& [title, chart] : others) {
        QAction* action = charts->addAction(title);
        connect(action, &QAction::triggered, this,
                [this, view = chart.first, name = chart.second] { exportChart(*view, name); });
    }
    QMenu* numbers = file->addMenu(tr("Export chart &numbers"));
    const QStringList names{tr("Memory chart (CSV or JSON)…"), tr("FLOP chart (CSV or JSON)…"),
                            tr("Number-format ranges (CSV or JSON)…")};
    for (int chart = memoryNumbers; chart <= rangeNumbers; ++chart) {
        QAction* action = numbers->addAction(names[chart]);
        connect(action, &QAction::triggered, this, [this, chart] { exportChartNumbers(chart); });
    }
}

void ExportController::exportChart(const ChartView& chart, const QString& suggestedName) {
    const QString path = chooseSaveFile(m_window, tr("Export chart"), suggestedName, imageFileFilter());
    if (path.isEmpty())
        return;
    const QString error = saveChart(chart, path, kSlideSize, kSlideScale);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export chart"), error);
}

void ExportController::chooseAndExportCurrentPage() {
    const QString name =
        m_pages->tabText(m_pages->currentIndex()).toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    const QString path =
        chooseSaveFile(m_window, tr("Export page"), name + QStringLiteral(".png"), imageFileFilter());
    if (path.isEmpty())
        return;
    const QString error = exportCurrentPage(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export page"), error);
}

QString ExportController::exportCurrentPage(const QString& path) {
    QWidget* page = m_pages->currentWidget();
    const QString caption = m_pageCaption ? m_pageCaption() : QString();
    return savePage(*page, path, page->size(), kSlideScale, nullptr, caption);
}

void ExportController::exportChartNumbers(int chart) {
    static const char* const defaults[] = {"memory.csv", "flops.csv", "formats.csv"};
    const QString path =
        chooseSaveFile(m_window, tr("Export chart numbers"), QString::fromLatin1(defaults[chart]),
                       tr("CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    const bool json = QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0;
    QByteArray bytes;
    if (chart == memoryNumbers) {
        const MemoryChartData& d = m_charts.memory->data();
        bytes = json ? memoryChartJson(d) : memoryChartCsv(d);
    } else if (chart == flopNumbers) {
        const FlopChartData& d = m_charts.flops->data();
        bytes = json ? flopChartJson(d) : flopChartCsv(d);
    } else {
        const QVector<DynamicRangeChart::Bar> bars = m_charts.ranges->bars();
        bytes = json ? rangeChartJson(bars) : rangeChartCsv(bars);
    }
    const QString error = saveFile(path, bytes);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export chart numbers"), error);
}
