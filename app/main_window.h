#pragma once
// The main window only wires pages together; each page is its own class.
#include <QMainWindow>

class AccountingPage;
class CaptionBanner;
class LectureTourController;
class PresentationMode;
class QAction;
class QTabWidget;

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

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void addFileMenu();
    void exportChart(bool flops);
    void exportCurrentPage();
    void setUpClassroom();

    AccountingPage* m_accounting = nullptr;
    QTabWidget* m_pages = nullptr;
    CaptionBanner* m_banner = nullptr;
    LectureTourController* m_tour = nullptr;
    PresentationMode* m_presentation = nullptr;
    QAction* m_presentationAction = nullptr;
    QAction* m_darkAction = nullptr;
};
