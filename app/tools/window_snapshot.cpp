// SPDX-License-Identifier: GPL-3.0-or-later
// Developer tool: renders the whole main window offscreen to a PNG, to look at a page without a display.
// Usage: napkin_window_snapshot OUT.png [PRESET] [WIDTH HEIGHT]
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/shell/main_window.h"

#include <QApplication>
#include <QPixmap>

#include <cstdio>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("NapkinSnapshot")); // keep the user's settings out of it
    if (argc < 2) {
        std::fprintf(stderr, "usage: napkin_window_snapshot OUT.png [PRESET] [WIDTH HEIGHT]\n");
        return 2;
    }
    MainWindow window;
    if (argc > 2) {
        const Preset* preset = findPreset(QString::fromLocal8Bit(argv[2]));
        if (!preset) {
            std::fprintf(stderr, "napkin_window_snapshot: unknown preset '%s'; known: %s\n", argv[2],
                         qPrintable(presetIdList()));
            return 2;
        }
        window.accountingPage()->applyPreset(*preset);
    }
    window.resize(argc > 4 ? QSize(std::atoi(argv[3]), std::atoi(argv[4])) : QSize(1600, 1000));
    window.show();
    for (int i = 0; i < 5; ++i) // layout, then the queued replots
        QApplication::processEvents();
    return window.grab().save(QString::fromLocal8Bit(argv[1])) ? 0 : 1;
}
