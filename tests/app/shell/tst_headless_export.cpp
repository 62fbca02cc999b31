// SPDX-License-Identifier: GPL-3.0-or-later
// `napkin --export FILE --page PAGE [--scenario FILE]` through the real executable: every page in every
// format gives a valid, non-blank file; a scenario changes the picture; a bad scenario writes nothing.
#include "app/document/scenario_file.h"
#include "engine/scenario/scenario.h"

#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <algorithm>

namespace {

// Distinct colours on a coarse grid: a blank or single-colour picture has one or two.
int colourCount(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 5)
        for (int x = 0; x < image.width(); x += 5)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

struct Run {
    int exitCode = -1;
    QByteArray err;
};

Run runNapkin(const QStringList& args) {
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(QStringLiteral(NAPKIN_EXECUTABLE), args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitCode(), p.readAllStandardError()};
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestHeadlessExport : public QObject {
    Q_OBJECT
private slots:
    void everyPageEveryFormat_data();
    void everyPageEveryFormat();
    void scenarioChangesThePicture();
    void badScenarioWritesNothing_data();
    void badScenarioWritesNothing();
    void versionAndHelp();
    void chartCarriesTitleAndSettings();
    void rooflineIsTheChartAlone();
    void trainingPageShowsItsLesson();
    void pageCarriesItsSetup();
};

// An exported chart says what it shows and for which setup; --no-caption leaves both out.
void TestHeadlessExport::chartCarriesTitleAndSettings() {
    QTemporaryDir dir;
    const QString captioned = dir.filePath(QStringLiteral("memory.svg"));
    const QString bare = dir.filePath(QStringLiteral("bare.svg"));
    QCOMPARE(
        runNapkin({QStringLiteral("--export"), captioned, QStringLiteral("--page"), QStringLiteral("memory")})
            .exitCode,
        0);
    QCOMPARE(runNapkin({QStringLiteral("--export"), bare, QStringLiteral("--page"), QStringLiteral("memory"),
                        QStringLiteral("--no-caption")})
                 .exitCode,
             0);
    const QByteArray a = readAll(captioned), b = readAll(bare);
    QVERIFY(a.contains("Training memory per GPU"));
    QVERIFY(a.contains("napkin-cli account"));
    QVERIFY(!b.contains("Training memory per GPU"));
    QVERIFY(!b.contains("napkin-cli account"));
}

// A page's picture says its setup under it, the napkin-cli line of the page (as File ▸ Export current page's
// does); --no-caption leaves it out.
void TestHeadlessExport::pageCarriesItsSetup() {
    QTemporaryDir dir;
    const QString captioned = dir.filePath(QStringLiteral("formats.svg"));
    const QString bare = dir.filePath(QStringLiteral("bare.svg"));
    QCOMPARE(
        runNapkin({QStringLiteral("--export"), captioned, QStringLiteral("--page"), QStringLiteral("formats")})
            .exitCode,
        0);
    QCOMPARE(runNapkin({QStringLiteral("--export"), bare, QStringLiteral("--page"), QStringLiteral("formats"),
                        QStringLiteral("--no-caption")})
                 .exitCode,
             0);
    const QByteArray a = readAll(captioned), b = readAll(bare);
    QVERIFY(a.contains(">napkin-cli dtype"));
    QVERIFY(!b.contains("napkin-cli"));
}

// --page training waits for the lesson in front, computed on its worker: the picture showed an empty chart
// and an empty legend over "computing…". Its curves are the colour in the chart's part of the picture (the
// sliders above it, blue too, lie in its top fifth).
void TestHeadlessExport::trainingPageShowsItsLesson() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("training.png"));
    QCOMPARE(runNapkin({QStringLiteral("--export"), path, QStringLiteral("--page"),
                        QStringLiteral("training"), QStringLiteral("--width"), QStringLiteral("1280"),
                        QStringLiteral("--height"), QStringLiteral("720")})
                 .exitCode,
             0);
    const QImage picture(path);
    QCOMPARE(picture.size(), QSize(1280, 720));
    int coloured = 0;
    for (int y = picture.height() / 4; y < picture.height() * 17 / 20; ++y)
        for (int x = 0; x < picture.width(); ++x) {
            const QColor c = picture.pixelColor(x, y);
            coloured += c.hsvSaturation() > 100 && c.value() > 60 ? 1 : 0;
        }
    QVERIFY2(coloured > 500,
             qPrintable(QStringLiteral("%1 coloured pixels in the chart's part").arg(coloured)));
}

// --page roofline exports the chart, not the page's boxes and buttons.
void TestHeadlessExport::rooflineIsTheChartAlone() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("roofline.svg"));
    const Run run =
        runNapkin({QStringLiteral("--export"), path, QStringLiteral("--page"), QStringLiteral("roofline")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), run.err.constData());
    const QByteArray bytes = readAll(path);
    QVERIFY(bytes.contains("Roofline"));
    QVERIFY(bytes.contains("FLOP/s"));
    QVERIFY(!bytes.contains("Clear measured points"));
    QVERIFY(!bytes.contains(">Measure<"));
}

void TestHeadlessExport::everyPageEveryFormat_data() {
    QTest::addColumn<QString>("page");
    QTest::addColumn<QString>("suffix");
    for (const char* page : {"memory", "flops", "timeline", "formats", "tensor", "benchmarks", "roofline"})
        for (const char* suffix : {"png", "svg", "pdf"})
            QTest::addRow("%s.%s", page, suffix) << QString::fromLatin1(page) << QString::fromLatin1(suffix);
    // The Inference tab draws the same way as the other pages: one format keeps the suite short.
    QTest::addRow("inference.png") << QStringLiteral("inference") << QStringLiteral("png");
}

void TestHeadlessExport::everyPageEveryFormat() {
    QFETCH(QString, page);
    QFETCH(QString, suffix);
    QTemporaryDir dir;
    const QString path = dir.filePath(page + QLatin1Char('.') + suffix);
    const Run run = runNapkin({QStringLiteral("--export"), path, QStringLiteral("--page"), page,
                               QStringLiteral("--width"), QStringLiteral("720"), QStringLiteral("--height"),
                               QStringLiteral("480"), QStringLiteral("--scale"), QStringLiteral("2")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.isEmpty(), run.err.constData()); // no Qt warnings either
    const QByteArray bytes = readAll(path);
    if (suffix == QLatin1String("png")) {
        QVERIFY(bytes.startsWith(QByteArray("\x89PNG\r\n\x1a\n", 8)));
        const QImage image = QImage::fromData(bytes, "PNG");
        QCOMPARE(image.size(), QSize(1440, 960)); // --scale 2: sharp on a high-DPI slide
        QVERIFY(colourCount(image) > 3);
    } else if (suffix == QLatin1String("svg")) {
        QVERIFY(bytes.contains("<svg"));
        QSvgRenderer svg(bytes);
        QVERIFY(svg.isValid());
        QCOMPARE(svg.viewBox().size(), QSize(720, 480));
        QImage image(360, 240, QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        svg.render(&painter);
        painter.end();
        QVERIFY(colourCount(image) > 3);
    } else {
        QVERIFY(bytes.startsWith("%PDF-1."));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        QVERIFY(bytes.contains("/Type /Page"));                           // one page
        QVERIFY(bytes.contains("/MediaBox [0 0 720.000000 480.000000]")); // the size in points
        QVERIFY(bytes.size() > 4000);                                     // more than an empty page
    }
}

void TestHeadlessExport::scenarioChangesThePicture() {
    QTemporaryDir dir;
    napkin::Scenario s;
    s.accounting.input.gpus = 8;
    s.accounting.input.model.parameters = 70e9; // 70B with AdamW on 8 H100s: does not fit
    const QString scenario = dir.filePath(QStringLiteral("s.json"));
    QCOMPARE(saveScenarioFile(s, scenario), QString());
    const QString plain = dir.filePath(QStringLiteral("plain.svg"));
    const QString withScenario = dir.filePath(QStringLiteral("scenario.svg"));
    QCOMPARE(runNapkin({QStringLiteral("--export"), plain}).exitCode, 0);
    QCOMPARE(runNapkin({QStringLiteral("--export"), withScenario, QStringLiteral("--scenario"), scenario})
                 .exitCode,
             0);
    const QByteArray a = readAll(plain), b = readAll(withScenario);
    QVERIFY(a.contains("16 GB"));   // 1e9 params × 16 B/param
    QVERIFY(b.contains("1.12 TB")); // 70e9 × 16 B/param = 1.12e12 bytes
    QVERIFY(b.contains("one of 8"));
}

// Each refused with exit 2 and one stderr line naming --scenario; no file is written.
void TestHeadlessExport::badScenarioWritesNothing_data() {
    QTest::addColumn<QByteArray>("content"); // null: a FIFO at the path instead of a file
    QTest::addColumn<QString>("page");
    QTest::addColumn<QByteArray>("error");
    QTest::newRow("a newer version") << QByteArray(R"({"format": "napkin-scenario", "version": 9})")
                                     << "accounting" << QByteArray("newer Napkin");
    // Crashed with SIGSEGV: the message about the bad item dumped it recursively.
    QTest::newRow("dtypes nested 60,000 deep")
        << QByteArray(R"({"format": "napkin-scenario", "version": 2, "benchmarks": {"dtypes": )") +
               QByteArray(60000, '[') + QByteArray(60000, ']') + "}}"
        << "benchmarks" << QByteArray("nested deeper than 32 levels");
    QTest::newRow("a newline in a name")
        << QByteArray(R"({"format": "napkin-scenario", "version": 2, "accounting": {"gpu": "H100\nSXM"}})")
        << "accounting" << QByteArray("unknown value 'H100?SXM'");
    QTest::newRow("tp 7 with 12 heads")
        << QByteArray(R"({"format": "napkin-scenario", "version": 2, "accounting": {"model": {"kind": )"
                      R"("transformer"}, "gpus": 7, "parallel": {"tp": 7}}})")
        << "accounting" << QByteArray("accounting.parallel.tp: must divide heads (12)");
    // Waited for a writer that never came.
    QTest::newRow("a FIFO") << QByteArray() << "accounting" << QByteArray("is not a regular file");
}

void TestHeadlessExport::badScenarioWritesNothing() {
    QFETCH(QByteArray, content);
    QFETCH(QString, page);
    QFETCH(QByteArray, error);
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    if (content.isNull()) {
        QCOMPARE(::mkfifo(QFile::encodeName(bad).constData(), 0600), 0);
    } else {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
    }
    const QString out = dir.filePath(QStringLiteral("out.svg"));
    const Run run = runNapkin(
        {QStringLiteral("--export"), out, QStringLiteral("--page"), page, QStringLiteral("--scenario"), bad});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("--scenario"), run.err.constData());
    QVERIFY2(run.err.contains(error), run.err.constData());
    // One line of napkin's own (Qt may add a line of its own about the environment, XDG_RUNTIME_DIR).
    const QList<QByteArray> lines = run.err.split('\n');
    QCOMPARE(std::count_if(lines.begin(), lines.end(),
                           [](const QByteArray& l) { return l.startsWith("napkin:"); }),
             1);
    for (const QByteArray& line : lines)
        QVERIFY2(line.isEmpty() || line.startsWith("napkin:") || line.startsWith("QStandardPaths:"),
                 run.err.constData());
    QVERIFY(!QFile::exists(out));
}

void TestHeadlessExport::versionAndHelp() {
    QProcess p;
    p.start(QStringLiteral(NAPKIN_EXECUTABLE), {QStringLiteral("--version")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(p.readAllStandardOutput().startsWith("napkin 0."));
}

QTEST_MAIN(TestHeadlessExport)
#include "tst_headless_export.moc"
