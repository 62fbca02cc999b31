// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The main window only wires pages together: it builds the pages, is their ScenarioHost (every control
// as one scenario, in and out), and hands the File and View menus to the controllers that own them:
// scenario files (document), model configs (a config.json opened or dropped), exports (export),
// presentation mode and the lecture tour (classroom).
#include "app/document/scenario_host.h"

#include <QMainWindow>
#include <QStringList>

class AccountingPage;
class BenchmarksPage;
class CaptionBanner;
class ClassroomController;
class ExportController;
class HelpMenu;
class InferencePage;
class LectureTourController;
class TourFileController;
class MeasuredRunController;
class ModelConfigController;
class NumberFormatsPage;
class QTabWidget;
class RooflinePage;
class ScenarioController;
class ScenarioUndo;
class TensorPage;
class TrainingPage;

class MainWindow : public QMainWindow, public ScenarioHost {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    AccountingPage* accountingPage() const { return m_accounting; }
    InferencePage* inferencePage() const { return m_inference; }
    NumberFormatsPage* numberFormatsPage() const { return m_formats; }
    TensorPage* tensorPage() const { return m_tensor; }
    BenchmarksPage* benchmarksPage() const { return m_benchmarks; }
    RooflinePage* rooflinePage() const { return m_roofline; }
    TrainingPage* trainingPage() const { return m_training; }
    QTabWidget* pages() const { return m_pages; }
    /// Brings the page `napkin --page NAME` names to the front (memory, flops and timeline are the
    /// Accounting page's charts); false for a name that is no page.
    bool showPageNamed(const QString& name);

    // ScenarioHost: every control of every page, and the page in front.
    napkin::Scenario scenario() const override;
    QStringList applyScenario(const napkin::Scenario& scenario) override;
    QWidget* hostWindow() override { return this; }
    QWidget* answerWidget(std::string_view field) override;
    QList<QWidget*> answerBearers(std::string_view field) override;

    /// The napkin-cli line that reproduces the page in front (Edit ▸ Copy as command); the Benchmarks page's
    /// is one line per run; empty for the Training page. `error`: why a user-defined GPU's catalog file is
    /// not named (it could not be written).
    QString pageCommand(QString* error = nullptr) const;
    /// Puts pageCommand() on the clipboard and says so in the status bar, or says there is none.
    void copyPageCommand();

    /// Edit ▸ Undo, Redo and Reset page over every page's controls.
    ScenarioUndo* undo() const { return m_undo; }

    /// Loads `path` and applies it (ScenarioController::openScenario); returns the error shown, or "".
    QString openScenario(const QString& path);
    /// Writes the scenario to `path` atomically; returns an error message or an empty string.
    QString saveScenario(const QString& path);
    /// File ▸ Export current page to `path` (ExportController): without scroll bars, captioned with the
    /// page's setup; returns an error message or "".
    QString exportCurrentPage(const QString& path);
    /// A file by its kind, as when dropped on the window or chosen in File ▸ Open recent: a scenario, a
    /// measured run (trace or snapshot), else a model's config.json; returns the error shown, or "".
    QString openFile(const QString& path);
    /// Reads a Hugging Face config.json as both pages' model (ModelConfigController); returns the
    /// engine's message, or "".
    QString openModelConfig(const QString& path);
    /// Reads a profiler trace or CUDA memory snapshot onto the Accounting page (MeasuredRunController);
    /// returns the engine's message, "" when read.
    QString openMeasuredRun(const QString& path);

    // Classroom (ClassroomController): presentation mode, the lecture tour, the dark palette.
    LectureTourController* tour() const;
    /// Open tour…, and the tour recorded from this window.
    TourFileController* tourFiles() const;
    CaptionBanner* captionBanner() const;
    bool isPresentationMode() const;
    void setPresentationMode(bool on);
    void setDarkPalette(bool dark);

protected:
    void closeEvent(QCloseEvent* event) override;
    /// A dropped file: a Napkin scenario opens as one; anything else is read as a model's config.json.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void addMenus();

    QTabWidget* m_pages;
    AccountingPage* m_accounting;
    InferencePage* m_inference;
    NumberFormatsPage* m_formats;
    TensorPage* m_tensor;
    BenchmarksPage* m_benchmarks;
    RooflinePage* m_roofline;
    TrainingPage* m_training;
    ScenarioController* m_scenarios;
    ScenarioUndo* m_undo;
    ModelConfigController* m_modelConfigs;
    MeasuredRunController* m_measuredRuns;
    ExportController* m_exports;
    ClassroomController* m_classroom;
    HelpMenu* m_help;
};
