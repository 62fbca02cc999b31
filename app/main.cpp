#include "app/main_window.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Napkin"));
    QApplication::setOrganizationName(QStringLiteral("Napkin"));
    QApplication::setApplicationVersion(QStringLiteral(NAPKIN_VERSION));
    MainWindow window;
    window.show();
    return QApplication::exec();
}
