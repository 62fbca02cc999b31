#pragma once
// The main window only wires pages together; each page is its own class.
#include "engine/scenario/scenario.h"

#include <QMainWindow>
#include <QStringList>

class AccountingPage;
class CaptionBanner;
class LectureTourController;
class PresentationMode;
class QAction;
class BenchmarksPage;
class NumberFormatsPage;
class QMenu;
class QTabWidget;
class TensorPage;
class TrainingPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    AccountingPage* accountingPage() const { return m_accounting; }
    QTabWidget* pages() const { return m_pages; }
    // Classroom (main_window_classroom.cpp): presentation mode, lecture tour, dark palette.
    LectureTourController* tour() const { return m_tour; }
    CaptionBanner* captionBanner() const { return m_banner; }
    bool isPresentationMode() const;
    void setPresentationMode(bool on);
    void setDarkPalette(bool dark);
    NumberFormatsPage* numberFormatsPage() const { return m_formats; }
    TensorPage* tensorPage() const { return m_tensor; }
    BenchmarksPage* benchmarksPage() const { return m_benchmarks; }
    TrainingPage* trainingPage() const { return m_training; }

    // Scenarios (main_window_scenarios.cpp): every control of every page, and the page in front.
    napkin::Scenario scenario() const;
    /// Sets every page from `scenario`; returns what could not be shown as saved (e.g. no GPU here).
    QStringList applyScenario(const napkin::Scenario& scenario);
    /// Loads `path` and applies it; a refused file changes nothing and its message is shown in a
    /// (non-blocking) message box and returned. Returns an empty string on success.
    QString openScenario(const QString& path);
    /// Writes the scenario to `path` atomically; returns an error message or an empty string.
    QString saveScenario(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void addFileMenu();
    void exportChart(bool flops);
    void exportCurrentPage();
    void setUpClassroom();

    void addScenarioActions(QMenu* file);
    // main_window_export.cpp: clipboard, the numbers behind the charts, the file-type filter.
    void addExportActions(QMenu* file);
    void exportChartData(int chart);
    QString imageFileFilter() const;
    void rebuildRecentMenu();
    void showMessage(const QString& title, const QString& text);

    AccountingPage* m_accounting = nullptr;
    NumberFormatsPage* m_formats = nullptr;
    TensorPage* m_tensor = nullptr;
    BenchmarksPage* m_benchmarks = nullptr;
    TrainingPage* m_training = nullptr;
    QMenu* m_recentMenu = nullptr;
    QTabWidget* m_pages = nullptr;
    CaptionBanner* m_banner = nullptr;
    LectureTourController* m_tour = nullptr;
    PresentationMode* m_presentation = nullptr;
    QAction* m_presentationAction = nullptr;
    QAction* m_darkAction = nullptr;
};
