#pragma once
// The main window only wires pages together; each page is its own class.
#include <QMainWindow>

class AccountingPage;
class QTabWidget;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    AccountingPage* accountingPage() const { return m_accounting; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void addFileMenu();
    void exportChart(bool flops);
    void exportCurrentPage();

    AccountingPage* m_accounting = nullptr;
    QTabWidget* m_pages = nullptr;
};
