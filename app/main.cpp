#include "app/accounting_page.h"
#include "app/chart_export.h"
#include "app/command_line.h"
#include "app/main_window.h"
#include "app/number_formats_page.h"
#include "app/tensor_page.h"
#include "app/presets.h"

#include <QApplication>

#include <cstdio>
#include <memory>

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

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Napkin"));
    QApplication::setOrganizationName(QStringLiteral("Napkin"));
    QApplication::setApplicationVersion(QStringLiteral(NAPKIN_VERSION));
    if (headless && (cl.page == QStringLiteral("formats") || cl.page == QStringLiteral("tensor"))) {
        std::unique_ptr<QWidget> page;
        if (cl.page == QStringLiteral("formats"))
            page = std::make_unique<NumberFormatsPage>();
        else
            page = std::make_unique<TensorPage>();
        const QString error = exportWidgetPng(*page, cl.exportPath, cl.size, cl.scale);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "napkin: --export: %s\n", qPrintable(error));
            return 1;
        }
        return 0;
    }
    if (headless) {
        AccountingPage page;
        if (!cl.preset.isEmpty())
            page.applyPreset(*findPreset(cl.preset));
        const QString error = exportChartPng(page, cl.page == QStringLiteral("flops") ? ChartKind::flops : ChartKind::memory,
                                             cl.exportPath, cl.size, cl.scale);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "napkin: --export: %s\n", qPrintable(error));
            return 1;
        }
        return 0;
    }
    MainWindow window;
    window.show();
    return QApplication::exec();
}
