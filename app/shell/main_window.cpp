#include "app/shell/main_window.h"
#include "app/formats/number_formats_page.h"
#include "app/tensor/tensor_page.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/training/training_page.h"

#include "app/accounting/accounting_page.h"
#include "app/export/save_file.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setWindowTitle(tr("Napkin"));
    auto* pages = new QTabWidget(this);
    m_pages = pages;
    m_accounting = new AccountingPage(pages);
    pages->addTab(m_accounting, tr("Accounting"));
    m_formats = new NumberFormatsPage(pages);
    m_tensor = new TensorPage(pages);
    m_benchmarks = new BenchmarksPage(pages);
    pages->addTab(m_formats, tr("Number formats"));
    pages->addTab(m_tensor, tr("Tensor layout"));
    pages->addTab(m_benchmarks, tr("Benchmarks"));
    m_training = new TrainingPage(pages);
    pages->addTab(m_training, tr("Training"));
    setCentralWidget(pages);
    resize(1200, 800);
    addFileMenu();
    setUpClassroom();
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_accounting->restoreSettings(settings);
}

void MainWindow::addFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    addScenarioActions(file);
    QAction* memory = file->addAction(tr("Export &memory chart…"));
    connect(memory, &QAction::triggered, this, [this] { exportChart(false); });
    QAction* flops = file->addAction(tr("Export &FLOP chart…"));
    connect(flops, &QAction::triggered, this, [this] { exportChart(true); });
    QAction* page = file->addAction(tr("Export current &page…"));
    connect(page, &QAction::triggered, this, &MainWindow::exportCurrentPage);
    addExportActions(file);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

// Exports at twice the on-screen resolution so the chart stays sharp on a projected slide.
void MainWindow::exportChart(bool flops) {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), flops ? tr("flops.png") : tr("memory.png"), imageFileFilter());
    if (path.isEmpty())
        return;
    const ChartView* chart = flops ? static_cast<const ChartView*>(m_accounting->flopChart()) : m_accounting->memoryChart();
    const QString error = saveChart(*chart, path, QSize(1600, 900), 2.0);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export chart"), error);
}

// The visible page as it is on screen, at twice its resolution for slides.
void MainWindow::exportCurrentPage() {
    QWidget* page = m_pages->currentWidget();
    const QString name = m_pages->tabText(m_pages->currentIndex()).toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export page"), name + QStringLiteral(".png"),
                                                      imageFileFilter());
    if (path.isEmpty())
        return;
    const QString error = savePage(*page, path, page->size(), 2.0);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export page"), error);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    m_accounting->saveSettings(settings);
    QMainWindow::closeEvent(event);
}
