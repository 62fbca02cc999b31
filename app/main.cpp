// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/command_line.h"
#include "app/shell/headless_export.h"
#include "app/shell/main_window.h"

#include <QApplication>
#include <QIcon>

#include <cstdio>

int main(int argc, char** argv) {
    // Parse before QApplication exists: --help, --version and bad arguments need no display, and a
    // headless export must choose the offscreen platform before the GUI starts.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const CommandLineResult parsed = parseCommandLine(arguments);
    if (!parsed.ok()) {
        std::fprintf(stderr, "napkin: %s\n", qPrintable(parsed.error));
        return 2;
    }
    const CommandLine& cl = parsed.options;
    if (cl.action == CommandLine::Action::showHelp) {
        std::fputs(qPrintable(cl.helpText), stdout);
        return 0;
    }
    if (cl.action == CommandLine::Action::showVersion) {
        std::printf("napkin %s\n", NAPKIN_VERSION);
        return 0;
    }
    const bool headless = cl.action == CommandLine::Action::exportChart;
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (headless) // stderr carries napkin's own errors only, not notes about the session
        quietSessionNotes();

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Napkin"));
    QApplication::setOrganizationName(QStringLiteral("Napkin"));
    QApplication::setApplicationVersion(QStringLiteral(NAPKIN_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("napkin")); // matches resources/napkin.desktop
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/napkin.svg")));
    if (headless) {
        const HeadlessExportResult result = runHeadlessExport(cl);
        if (result.exitCode != 0)
            std::fprintf(stderr, "napkin: %s\n", qPrintable(result.error));
        return result.exitCode;
    }
    MainWindow window;
    window.show();
    if (!cl.scenarioPath.isEmpty())
        window.openScenario(cl.scenarioPath); // a refused file: a message box over a fresh window
    if (cl.pageGiven)
        window.showPageNamed(cl.page); // after the scenario: --page says which page to look at
    return QApplication::exec();
}
