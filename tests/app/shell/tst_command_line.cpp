// SPDX-License-Identifier: GPL-3.0-or-later
// The napkin executable's command line: a pure parse(), so every case is a table row.
#include "app/shell/command_line.h"

#include <QtTest>

class TestCommandLine : public QObject {
    Q_OBJECT
private slots:
    void parse_data();
    void parse();
    void scenarioFile_data();
    void scenarioFile();
    void helpAndVersion();
    void pageWithoutExportOpensThere();
};

// `napkin --page P` opens the window at P (it used to be ignored); --no-caption is read for exports.
void TestCommandLine::pageWithoutExportOpensThere() {
    const CommandLineResult plain = parseCommandLine({QStringLiteral("napkin")});
    QVERIFY(plain.ok());
    QVERIFY(!plain.options.pageGiven);
    const CommandLineResult page =
        parseCommandLine({QStringLiteral("napkin"), QStringLiteral("--page"), QStringLiteral("roofline")});
    QVERIFY(page.ok());
    QCOMPARE(page.options.action, CommandLine::Action::openWindow);
    QVERIFY(page.options.pageGiven);
    QCOMPARE(page.options.page, QStringLiteral("roofline"));
    QVERIFY(page.options.caption);
    const CommandLineResult bare =
        parseCommandLine({QStringLiteral("napkin"), QStringLiteral("--export"), QStringLiteral("a.png"),
                          QStringLiteral("--no-caption")});
    QVERIFY(bare.ok());
    QVERIFY(!bare.options.caption);
}

void TestCommandLine::scenarioFile_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error"); // substring; empty: must succeed
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("action");
    const int window = static_cast<int>(CommandLine::Action::openWindow);
    const int exportChart = static_cast<int>(CommandLine::Action::exportChart);
    QTest::newRow("napkin FILE opens it") << QStringList{"lecture.json"} << ""
                                          << "lecture.json" << window;
    QTest::newRow("--scenario opens it") << QStringList{"--scenario", "x.json"} << ""
                                         << "x.json" << window;
    QTest::newRow("export a scenario")
        << QStringList{"--export", "t.svg", "--page", "tensor", "--scenario", "x.json"} << ""
        << "x.json" << exportChart;
    QTest::newRow("both forms") << QStringList{"--scenario", "x.json", "y.json"} << "already given"
                                << "" << window;
    QTest::newRow("scenario and preset")
        << QStringList{"--export", "m.png", "--scenario", "x.json", "--preset", "cruncher"} << "--preset"
        << "" << window;
    QTest::newRow("empty scenario name") << QStringList{"--scenario", ""} << "--scenario"
                                         << "" << window;
}

void TestCommandLine::scenarioFile() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    QFETCH(QString, scenario);
    QFETCH(int, action);
    args.prepend(QStringLiteral("napkin"));
    const CommandLineResult r = parseCommandLine(args);
    if (!error.isEmpty()) {
        QVERIFY2(!r.ok(), "expected an error");
        QVERIFY2(r.error.contains(error), qPrintable(r.error));
        QVERIFY2(!r.error.contains(QLatin1Char('\n')), qPrintable(r.error)); // one line on stderr
        return;
    }
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.options.scenarioPath, scenario);
    QCOMPARE(static_cast<int>(r.options.action), action);
}

void TestCommandLine::helpAndVersion() {
    const CommandLineResult help = parseCommandLine({QStringLiteral("napkin"), QStringLiteral("--help")});
    QVERIFY(help.ok());
    QCOMPARE(help.options.action, CommandLine::Action::showHelp);
    for (const char* mention : {"--export", "--page", "--scenario", "--width", "--height", "--scale",
                                "--version", "scenario.json", ".svg", "benchmarks"})
        QVERIFY2(help.options.helpText.contains(QLatin1String(mention)), mention);
    QVERIFY(help.options.helpText.startsWith(QStringLiteral("Usage: napkin")));
    const CommandLineResult version =
        parseCommandLine({QStringLiteral("napkin"), QStringLiteral("--version")});
    QVERIFY(version.ok());
    QCOMPARE(version.options.action, CommandLine::Action::showVersion);
}

void TestCommandLine::parse_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error"); // substring of the error; empty: must succeed
    QTest::addColumn<int>("action");
    QTest::addColumn<QString>("page");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QSize>("size");
    const int window = static_cast<int>(CommandLine::Action::openWindow);
    const int exportChart = static_cast<int>(CommandLine::Action::exportChart);
    const QSize standard(1600, 900);
    QTest::newRow("no arguments opens the window") << QStringList{} << "" << window << "memory"
                                                   << "" << standard;
    QTest::newRow("export memory") << QStringList{"--export", "m.png"} << "" << exportChart << "memory"
                                   << "" << standard;
    QTest::newRow("export flops with preset and size")
        << QStringList{"--export", "f.png",   "--page", "flops",    "--preset",
                       "cruncher", "--width", "800",    "--height", "450"}
        << "" << exportChart << "flops"
        << "cruncher" << QSize(800, 450);
    QTest::newRow("export the memory timeline of a preset")
        << QStringList{"--export", "t.svg", "--page", "timeline", "--preset", "cruncher"} << "" << exportChart
        << "timeline"
        << "cruncher" << standard;
    QTest::newRow("preset by name, any case")
        << QStringList{"--export", "f.png", "--preset", "gpt-2 SMALL"} << "" << exportChart << "memory"
        << "gpt-2 SMALL" << standard;
    QTest::newRow("unknown page") << QStringList{"--export", "x.png", "--page", "tensors"} << "--page"
                                  << window << ""
                                  << "" << standard;
    QTest::newRow("unknown preset") << QStringList{"--export", "x.png", "--preset", "llama"} << "--preset"
                                    << window << ""
                                    << "" << standard;
    QTest::newRow("bad width") << QStringList{"--export", "x.png", "--width", "wide"} << "--width" << window
                               << ""
                               << "" << standard;
    QTest::newRow("height too small")
        << QStringList{"--export", "x.png", "--height", "3"} << "--height" << window << ""
        << "" << standard;
    QTest::newRow("unknown option") << QStringList{"--frobnicate"} << "frobnicate" << window << ""
                                    << "" << standard;
    QTest::newRow("two scenario files") << QStringList{"a.json", "b.json"} << "b.json" << window << ""
                                        << "" << standard;
    QTest::newRow("export benchmarks page")
        << QStringList{"--export", "b.pdf", "--page", "benchmarks"} << "" << exportChart << "benchmarks"
        << "" << standard;
    QTest::newRow("export inference page")
        << QStringList{"--export", "i.png", "--page", "inference"} << "" << exportChart << "inference"
        << "" << standard;
    QTest::newRow("export roofline page")
        << QStringList{"--export", "r.png", "--page", "roofline"} << "" << exportChart << "roofline"
        << "" << standard;
    QTest::newRow("export svg") << QStringList{"--export", "m.SVG"} << "" << exportChart << "memory"
                                << "" << standard;
    QTest::newRow("export unknown format")
        << QStringList{"--export", "m.jpg"} << ".png, .svg, .pdf or .json" << window << ""
        << "" << standard;
    QTest::newRow("export without extension")
        << QStringList{"--export", "chart"} << "--export" << window << ""
        << "" << standard;
    QTest::newRow("export needs a file") << QStringList{"--export"} << "export" << window << ""
                                         << "" << standard;
    // Once passed the parser and failed later with three lines on stderr, or exported the default.
    const auto refused = [&](const char* name, const QStringList& args, const char* error) {
        QTest::newRow(name) << (QStringList{"--export", "x.png"} + args) << error << window << ""
                            << "" << standard;
    };
    refused("scale nan", {"--scale", "nan"}, "--scale: must be from 0.25 to 8");
    refused("scale 1e-300", {"--scale", "1e-300"}, "--scale: must be from 0.25 to 8");
    refused("scale 0.0001", {"--scale", "0.0001"}, "--scale: must be from 0.25 to 8");
    refused("16 x 16 at scale 0.25", {"--width", "16", "--height", "16", "--scale", "0.25"},
            "is 4 × 4 device pixels");
    refused("16384 x 16384 at scale 8", {"--width", "16384", "--height", "16384", "--scale", "8"},
            "at most 2.684e+08");
    refused("empty preset", {"--preset", ""}, "--preset: empty value");
    refused("blank page", {"--page", " "}, "--page: empty value");
    refused("empty width", {"--width", ""}, "--width: empty value");
}

void TestCommandLine::parse() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    QFETCH(int, action);
    QFETCH(QString, page);
    QFETCH(QString, preset);
    QFETCH(QSize, size);
    args.prepend(QStringLiteral("napkin"));
    const CommandLineResult r = parseCommandLine(args);
    if (!error.isEmpty()) {
        QVERIFY2(!r.ok(), "expected an error");
        QVERIFY2(r.error.contains(error), qPrintable(r.error));
        QVERIFY2(!r.error.contains(QLatin1Char('\n')), qPrintable(r.error)); // one line on stderr
        return;
    }
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(static_cast<int>(r.options.action), action);
    QCOMPARE(r.options.page, page);
    QCOMPARE(r.options.preset, preset);
    QCOMPARE(r.options.size, size);
}

QTEST_APPLESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"
