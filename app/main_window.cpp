#include "app/main_window.h"
#include "app/number_formats_page.h"

#include <QLabel>
#include <QTabWidget>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setWindowTitle(tr("Napkin"));
    auto* pages = new QTabWidget(this);
    pages->addTab(new QLabel(tr("The live accounting page arrives with issue “Live accounting window”."), pages),
                  tr("Accounting"));
    pages->addTab(new NumberFormatsPage(pages), tr("Number formats"));
    setCentralWidget(pages);
    resize(1200, 800);
}
