// MainWindow's export actions beyond the picture files: charts to the clipboard, and the numbers
// behind each chart as CSV or JSON (chosen by the extension).
#include "app/accounting/accounting_page.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/benchmarks/matmul_sweep_panel.h"
#include "app/benchmarks/training_run_panel.h"
#include "app/export/chart_data_export.h"
#include "app/export/save_file.h"
#include "app/shell/main_window.h"
#include "app/formats/number_formats_page.h"
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/throughput_chart.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

namespace {

enum Chart { memoryChart, flopChart, rangeChart };

} // namespace

QString MainWindow::imageFileFilter() const {
    return tr("PNG image, 2× for slides (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)");
}

void MainWindow::addExportActions(QMenu* file) {
    // Twice the on-screen resolution, as the PNG export, so a pasted chart stays sharp on a slide.
    QAction* copyMemory = file->addAction(tr("&Copy memory chart"));
    connect(copyMemory, &QAction::triggered, this, [this] {
        QApplication::clipboard()->setPixmap(m_accounting->memoryChart()->render(1600, 900, 2.0));
    });
    QAction* copyFlops = file->addAction(tr("Copy FLOP c&hart"));
    connect(copyFlops, &QAction::triggered, this, [this] {
        QApplication::clipboard()->setPixmap(m_accounting->flopChart()->render(1600, 900, 2.0));
    });
    // The other pages' charts on their own, as the accounting charts above (the page export has them too).
    QMenu* charts = file->addMenu(tr("Export &other chart"));
    const QList<std::pair<QString, QString>> others{
        {tr("Number-format ranges…"), QStringLiteral("ranges.png")},
        {tr("Matmul throughput…"), QStringLiteral("throughput.png")},
        {tr("Training loss…"), QStringLiteral("loss.png")}};
    for (int i = 0; i < others.size(); ++i) {
        QAction* action = charts->addAction(others[i].first);
        connect(action, &QAction::triggered, this, [this, i, name = others[i].second] {
            const QString path =
                QFileDialog::getSaveFileName(this, tr("Export chart"), name, imageFileFilter());
            if (path.isEmpty())
                return;
            const ChartView* chart = i == 0   ? static_cast<const ChartView*>(m_formats->rangeChart())
                                     : i == 1 ? static_cast<const ChartView*>(m_benchmarks->sweepPanel()->chart())
                                              : m_benchmarks->trainingPanel()->chart();
            const QString error = saveChart(*chart, path, QSize(1600, 900), 2.0);
            if (!error.isEmpty())
                QMessageBox::warning(this, tr("Export chart"), error);
        });
    }
    QMenu* numbers = file->addMenu(tr("Export chart &numbers"));
    const QStringList names{tr("Memory chart (CSV or JSON)…"), tr("FLOP chart (CSV or JSON)…"),
                            tr("Number-format ranges (CSV or JSON)…")};
    for (int chart = memoryChart; chart <= rangeChart; ++chart) {
        QAction* action = numbers->addAction(names[chart]);
        connect(action, &QAction::triggered, this, [this, chart] { exportChartData(chart); });
    }
}

void MainWindow::exportChartData(int chart) {
    static const char* const defaults[] = {"memory.csv", "flops.csv", "formats.csv"};
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export chart numbers"), QString::fromLatin1(defaults[chart]),
                                     tr("CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    const bool json = QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0;
    QByteArray bytes;
    if (chart == memoryChart) {
        const MemoryChartData& d = m_accounting->memoryChart()->data();
        bytes = json ? memoryChartJson(d) : memoryChartCsv(d);
    } else if (chart == flopChart) {
        const FlopChartData& d = m_accounting->flopChart()->data();
        bytes = json ? flopChartJson(d) : flopChartCsv(d);
    } else {
        const QVector<DynamicRangeChart::Bar> bars = m_formats->rangeChart()->bars();
        bytes = json ? rangeChartJson(bars) : rangeChartCsv(bars);
    }
    const QString error = saveFile(path, bytes);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export chart numbers"), error);
}
