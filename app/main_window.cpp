#include "app/main_window.h"
#include "app/tensor_page.h"

#include <QLabel>
#include <QTabWidget>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setWindowTitle(tr("Napkin"));
    auto* pages = new QTabWidget(this);
    pages->addTab(new QLabel(tr("The live accounting page arrives with issue “Live accounting window”."), pages),
                  tr("Accounting"));
    pages->addTab(new TensorPage(pages), tr("Tensor layout"));
    setCentralWidget(pages);
    resize(1200, 800);
}
