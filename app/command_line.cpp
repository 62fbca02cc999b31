#include "app/command_line.h"

#include "app/presets.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace {

QString tr(const char* text) { return QCoreApplication::translate("CommandLine", text); }

} // namespace

CommandLineResult parseCommandLine(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(tr("Napkin: deep-learning resource accounting, made visible."));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")}, tr("Show this help."));
    const QCommandLineOption version(QStringLiteral("version"), tr("Show the version."));
    const QCommandLineOption exportOption(QStringLiteral("export"), tr("Render a chart to FILE.png without a window and exit."),
                                          tr("FILE"));
    const QCommandLineOption page(QStringLiteral("page"), tr("Page to export: memory or flops (accounting charts), formats or tensor (whole pages)."), tr("PAGE"),
                                  QStringLiteral("memory"));
    const QCommandLineOption preset(QStringLiteral("preset"), tr("Scenario to export: %1.").arg(presetIdList()), tr("NAME"));
    const QCommandLineOption width(QStringLiteral("width"), tr("Width in pixels (default 1600)."), tr("W"), QStringLiteral("1600"));
    const QCommandLineOption height(QStringLiteral("height"), tr("Height in pixels (default 900)."), tr("H"), QStringLiteral("900"));
    const QCommandLineOption scale(QStringLiteral("scale"), tr("Device pixels per pixel, e.g. 2 for slides (default 1)."),
                                   tr("S"), QStringLiteral("1"));
    parser.addOptions({help, version, exportOption, page, preset, width, height, scale});

    CommandLineResult result;
    if (!parser.parse(arguments)) {
        result.error = parser.errorText();
        return result;
    }
    CommandLine& o = result.options;
    if (parser.isSet(help)) {
        o.action = CommandLine::Action::showHelp;
        // Without a QCoreApplication the parser cannot know the program's name.
        o.helpText = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("napkin"));
        return result;
    }
    if (parser.isSet(version)) {
        o.action = CommandLine::Action::showVersion;
        return result;
    }
    if (!parser.positionalArguments().isEmpty()) {
        result.error = tr("unexpected argument '%1'").arg(parser.positionalArguments().first());
        return result;
    }
    o.page = parser.value(page);
    const QStringList pages{QStringLiteral("memory"), QStringLiteral("flops"), QStringLiteral("formats"),
                            QStringLiteral("tensor")};
    if (!pages.contains(o.page)) {
        result.error = tr("--page: unknown page '%1'; known: %2").arg(o.page, pages.join(QStringLiteral(", ")));
        return result;
    }
    o.preset = parser.value(preset);
    if (!o.preset.isEmpty() && o.page != QStringLiteral("memory") && o.page != QStringLiteral("flops")) {
        result.error = tr("--preset: presets set the accounting page; --page %1 has none").arg(o.page);
        return result;
    }
    if (!o.preset.isEmpty() && !findPreset(o.preset)) {
        result.error = tr("--preset: unknown preset '%1'; known: %2").arg(o.preset, presetIdList());
        return result;
    }
    bool okW = false, okH = false, okS = false;
    const int w = parser.value(width).toInt(&okW);
    const int h = parser.value(height).toInt(&okH);
    const double s = parser.value(scale).toDouble(&okS);
    if (!okW || w < 16 || w > 16384) {
        result.error = tr("--width: must be a whole number of pixels from 16 to 16384, got '%1'").arg(parser.value(width));
        return result;
    }
    if (!okH || h < 16 || h > 16384) {
        result.error = tr("--height: must be a whole number of pixels from 16 to 16384, got '%1'").arg(parser.value(height));
        return result;
    }
    if (!okS || s <= 0 || s > 8) {
        result.error = tr("--scale: must be in (0, 8], got '%1'").arg(parser.value(scale));
        return result;
    }
    o.size = QSize(w, h);
    o.scale = s;
    if (parser.isSet(exportOption)) {
        o.action = CommandLine::Action::exportChart;
        o.exportPath = parser.value(exportOption);
    }
    return result;
}
