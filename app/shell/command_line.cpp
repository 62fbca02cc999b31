// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/command_line.h"

#include "app/accounting/presets.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("CommandLine", text);
}

// Export parameters' ranges. A scale below 1/4 draws a slide's chart on a thumbnail; each side needs some
// device pixels to hold a chart at all; 2^28 device pixels are 1 GiB of 32-bit image, the most one
// export may allocate.
constexpr double kMinScale = 0.25, kMaxScale = 8;
constexpr int kMinDevicePixels = 16;
constexpr double kMaxDevicePixels = 268435456.0;

} // namespace

CommandLineResult parseCommandLine(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(tr("Napkin: deep-learning resource accounting, made visible."));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  tr("Show this help."));
    const QCommandLineOption version(QStringLiteral("version"), tr("Show the version."));
    const QCommandLineOption exportOption(
        QStringLiteral("export"),
        tr("Render a chart or page to FILE without a window and exit; .png, .svg or .pdf, or .json for the "
           "answers of the accounting and inference pages (napkin-cli's document and its command)."),
        tr("FILE"));
    const QCommandLineOption page(QStringLiteral("page"),
                                  tr("Page to export: accounting, or its charts memory, flops or timeline, "
                                     "inference, formats, tensor, benchmarks, training (whole pages) or "
                                     "roofline (its chart). Without --export, the page the window opens at."),
                                  tr("PAGE"), QStringLiteral("memory"));
    const QCommandLineOption noCaption(QStringLiteral("no-caption"),
                                       tr("Export a chart without its title and settings line."));
    const QCommandLineOption preset(QStringLiteral("preset"),
                                    tr("Scenario to export: %1.").arg(presetIdList()), tr("NAME"));
    const QCommandLineOption width(QStringLiteral("width"), tr("Width in pixels (default 1600)."), tr("W"),
                                   QStringLiteral("1600"));
    const QCommandLineOption height(QStringLiteral("height"), tr("Height in pixels (default 900)."), tr("H"),
                                    QStringLiteral("900"));
    const QCommandLineOption scale(QStringLiteral("scale"),
                                   tr("Device pixels per pixel, e.g. 2 for slides (default 1)."), tr("S"),
                                   QStringLiteral("1"));
    const QCommandLineOption scenario(
        QStringLiteral("scenario"), tr("Scenario file to open or export (as saved by File > Save scenario)."),
        tr("FILE"));
    parser.addOptions({help, version, exportOption, page, noCaption, preset, width, height, scale, scenario});
    parser.addPositionalArgument(QStringLiteral("scenario.json"), tr("A scenario file to open."),
                                 QStringLiteral("[scenario.json]"));

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
    // One rule for every option, as in napkin-cli: a value given must say something. An empty --preset
    // or --page was read as "not given" and quietly exported the default.
    for (const QCommandLineOption* option :
         {&exportOption, &page, &preset, &width, &height, &scale, &scenario}) {
        if (!parser.isSet(*option))
            continue;
        for (const QString& value : parser.values(*option))
            if (value.trimmed().isEmpty()) {
                result.error = tr("--%1: empty value; give a value or leave the option out")
                                   .arg(option->names().constLast());
                return result;
            }
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        result.error = tr("unexpected argument '%1': give one scenario file").arg(positional.at(1));
        return result;
    }
    if (!positional.isEmpty() && parser.isSet(scenario)) {
        result.error = tr("unexpected argument '%1': --scenario is already given").arg(positional.first());
        return result;
    }
    o.scenarioPath = parser.isSet(scenario) ? parser.value(scenario) : positional.value(0);
    if (parser.isSet(scenario) && o.scenarioPath.isEmpty()) {
        result.error = tr("--scenario: needs a file name");
        return result;
    }
    o.page = parser.value(page);
    o.pageGiven = parser.isSet(page);
    o.caption = !parser.isSet(noCaption);
    const QStringList pages{QStringLiteral("accounting"), QStringLiteral("memory"),
                            QStringLiteral("flops"),      QStringLiteral("timeline"),
                            QStringLiteral("formats"),    QStringLiteral("tensor"),
                            QStringLiteral("benchmarks"), QStringLiteral("inference"),
                            QStringLiteral("roofline"),   QStringLiteral("training")};
    // The pages a (setup) preset sets: the accounting page and its charts, and the inference page (its
    // model).
    const QStringList accountingCharts{QStringLiteral("accounting"), QStringLiteral("memory"),
                                       QStringLiteral("flops"), QStringLiteral("timeline"),
                                       QStringLiteral("inference")};
    if (!pages.contains(o.page)) {
        result.error =
            tr("--page: unknown page '%1'; known: %2").arg(o.page, pages.join(QStringLiteral(", ")));
        return result;
    }
    o.preset = parser.value(preset);
    if (!o.preset.isEmpty() && !accountingCharts.contains(o.page)) {
        result.error =
            tr("--preset: presets set the accounting and inference pages; --page %1 has none").arg(o.page);
        return result;
    }
    if (!o.preset.isEmpty() && !o.scenarioPath.isEmpty()) {
        result.error =
            tr("--preset: a scenario file sets the accounting page too; give --preset or --scenario");
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
        result.error = tr("--width: must be a whole number of pixels from 16 to 16384, got '%1'")
                           .arg(parser.value(width));
        return result;
    }
    if (!okH || h < 16 || h > 16384) {
        result.error = tr("--height: must be a whole number of pixels from 16 to 16384, got '%1'")
                           .arg(parser.value(height));
        return result;
    }
    // Written so that NaN fails it: "nan" reads as a double, and NaN compares false with everything.
    if (!okS || !(s >= kMinScale && s <= kMaxScale)) {
        result.error = tr("--scale: must be from %1 to %2, got '%3'")
                           .arg(kMinScale)
                           .arg(kMaxScale)
                           .arg(parser.value(scale));
        return result;
    }
    // The image drawn is W·S × H·S device pixels: too small to hold a chart, or too large to allocate.
    const double deviceW = w * s, deviceH = h * s;
    if (deviceW < kMinDevicePixels || deviceH < kMinDevicePixels) {
        result.error = tr("--scale: %1 × %2 pixels at scale %3 is %4 × %5 device pixels; the image needs "
                          "at least %6 on each side")
                           .arg(w)
                           .arg(h)
                           .arg(s)
                           .arg(deviceW)
                           .arg(deviceH)
                           .arg(kMinDevicePixels);
        return result;
    }
    if (deviceW * deviceH > kMaxDevicePixels) {
        result.error = tr("--scale: %1 × %2 pixels at scale %3 is %4 device pixels; at most %5 (1 GiB of "
                          "image)")
                           .arg(w)
                           .arg(h)
                           .arg(s)
                           .arg(deviceW * deviceH, 0, 'g', 4)
                           .arg(kMaxDevicePixels, 0, 'g', 4);
        return result;
    }
    o.size = QSize(w, h);
    o.scale = s;
    if (parser.isSet(exportOption)) {
        o.action = CommandLine::Action::exportChart;
        o.exportPath = parser.value(exportOption);
        const QString suffix = o.exportPath.section(QLatin1Char('.'), -1).toLower();
        // .json: the page's answers as napkin-cli prints them, for the pages that are a napkin-cli command.
        const bool json = suffix == QLatin1String("json");
        if (!o.exportPath.contains(QLatin1Char('.')) ||
            !QStringList{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"),
                         QStringLiteral("json")}
                 .contains(suffix)) {
            result.error =
                tr("--export: '%1' must end in .png, .svg, .pdf or .json (the format is chosen by the "
                   "extension)")
                    .arg(o.exportPath);
            return result;
        }
        if (json && o.page != QLatin1String("accounting") && o.page != QLatin1String("inference")) {
            result.error = tr("--export: a .json export holds the answers of --page accounting or inference, "
                              "not %1")
                               .arg(o.page);
            return result;
        }
    }
    return result;
}
