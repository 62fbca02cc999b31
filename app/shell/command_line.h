// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The napkin executable's command line, parsed without side effects so that tests can call it.
#include <QSize>
#include <QString>
#include <QStringList>

struct CommandLine {
    enum class Action { openWindow, exportChart, showHelp, showVersion };
    Action action = Action::openWindow;
    QString exportPath;                      ///< --export FILE.png|.svg|.pdf
    QString page = QStringLiteral("memory"); ///< --page memory|flops|formats|tensor|benchmarks|roofline
    bool pageGiven = false;                  ///< --page was given: without --export, the window opens there
    bool caption = true;                     ///< a chart export's title and settings line (--no-caption: off)
    QString preset;                          ///< --preset ID or name; empty: the default scenario
    QString scenarioPath;                    ///< `napkin FILE.json` or --scenario FILE.json; empty: none
    QSize size{1600, 900};                   ///< --width / --height, logical pixels
    double scale = 1.0;                      ///< --scale: device pixels per pixel (2 for sharp slides)
    QString helpText;
};

struct CommandLineResult {
    CommandLine options;
    QString error; ///< one line naming the argument; empty on success (exit 2 when set)
    bool ok() const { return error.isEmpty(); }
};

/// Parses `arguments` (argv, program name first). Checks page and preset names and the size.
/// Needs no QCoreApplication, so main() can call it before choosing a platform.
CommandLineResult parseCommandLine(const QStringList& arguments);
