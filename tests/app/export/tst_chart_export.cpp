// SPDX-License-Identifier: GPL-3.0-or-later
// Headless export: in process, and through the real napkin executable with --export.
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/export/save_file.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QByteArray kPngSignature("\x89PNG\r\n\x1a\n", 8);

QByteArray head(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(8);
}

} // namespace

class TestChartExport : public QObject {
    Q_OBJECT
private slots:
    void inProcess_data();
    void inProcess();
    void executable_data();
    void executable();
    void executableRejects_data();
    void executableRejects();
    void helpNeedsNoDisplay();
    void pageLeavesItsControlsOut();
};

void TestChartExport::inProcess_data() {
    QTest::addColumn<int>("chart");
    QTest::addColumn<double>("scale");
    QTest::newRow("memory") << 0 << 1.0;
    QTest::newRow("flops at 2x for slides") << 1 << 2.0;
    QTest::newRow("memory over one step") << 2 << 1.0;
}

void TestChartExport::inProcess() {
    QFETCH(int, chart);
    QFETCH(double, scale);
    QTemporaryDir dir;
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    const ChartView* view = chart == 0   ? static_cast<const ChartView*>(page.memoryChart())
                            : chart == 1 ? static_cast<const ChartView*>(page.flopChart())
                                         : page.timelineChart();
    QCOMPARE(saveChart(*view, path, QSize(640, 360), scale), QString());
    QCOMPARE(head(path), kPngSignature);
    const QImage image(path);
    QCOMPARE(image.size(), QSize(640, 360) * scale);
    // Not blank: the bars put more than one colour in the picture.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 3);
}

void TestChartExport::executable_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QSize>("size");
    QTest::newRow("memory, default scenario") << QStringList{"--page", "memory"} << QSize(1600, 900);
    QTest::newRow("flops, GPT-3, 800x450")
        << QStringList{"--page", "flops", "--preset", "gpt3-175b", "--width", "800", "--height", "450"}
        << QSize(800, 450);
    QTest::newRow("number formats page")
        << QStringList{"--page", "formats", "--width", "1200", "--height", "800"} << QSize(1200, 800);
    QTest::newRow("tensor page, 2x scale")
        << QStringList{"--page", "tensor", "--width", "900", "--height", "600", "--scale", "2"}
        << QSize(1800, 1200);
}

void TestChartExport::executable() {
    QFETCH(QStringList, args);
    QFETCH(QSize, size);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.png"));
    QProcess napkin;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM")); // --export must pick offscreen on its own
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    napkin.setProcessEnvironment(env);
    napkin.start(QStringLiteral(NAPKIN_EXECUTABLE), QStringList{QStringLiteral("--export"), path} + args);
    QVERIFY(napkin.waitForFinished(60000));
    QCOMPARE(napkin.exitStatus(), QProcess::NormalExit);
    QVERIFY2(napkin.exitCode() == 0, napkin.readAllStandardError().constData());
    QVERIFY(napkin.readAllStandardOutput().isEmpty());
    QCOMPARE(head(path), kPngSignature);
    const QImage image(path);
    QCOMPARE(image.size(), size);
    QSet<QRgb> colours; // not blank: a page or chart puts many colours in the picture
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 3, qPrintable(QString::number(colours.size())));
}

void TestChartExport::executableRejects_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("named");
    QTest::newRow("unknown page") << QStringList{"--page", "tensors"} << "--page";
    QTest::newRow("unknown preset") << QStringList{"--preset", "llama-9000"} << "--preset";
    QTest::newRow("preset on the tensor page")
        << QStringList{"--page", "tensor", "--preset", "cruncher"} << "--preset";
}

void TestChartExport::executableRejects() {
    QFETCH(QStringList, args);
    QFETCH(QString, named);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.png"));
    QProcess napkin;
    napkin.start(QStringLiteral(NAPKIN_EXECUTABLE), QStringList{QStringLiteral("--export"), path} + args);
    QVERIFY(napkin.waitForFinished(60000));
    QCOMPARE(napkin.exitCode(), 2);
    QVERIFY(napkin.readAllStandardOutput().isEmpty());
    const QString err = QString::fromLocal8Bit(napkin.readAllStandardError());
    QVERIFY2(err.contains(named), qPrintable(err));
    QVERIFY(!QFile::exists(path));
}

void TestChartExport::helpNeedsNoDisplay() {
    QProcess napkin;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    napkin.setProcessEnvironment(env);
    napkin.start(QStringLiteral(NAPKIN_EXECUTABLE), QStringList{QStringLiteral("--help")});
    QVERIFY(napkin.waitForFinished(60000));
    QCOMPARE(napkin.exitStatus(), QProcess::NormalExit);
    QCOMPARE(napkin.exitCode(), 0);
    QVERIFY(napkin.readAllStandardOutput().contains("--export"));
}

QTEST_MAIN(TestChartExport)
namespace {

// Where a widget was when it was last painted, relative to `page`.
class PaintSpy : public QObject {
public:
    PaintSpy(QWidget* watched, QWidget* page)
        : m_watched(watched)
        , m_page(page) {
        watched->installEventFilter(this);
    }
    QPoint at{-1, -1};

protected:
    bool eventFilter(QObject* object, QEvent* event) override {
        if (object == m_watched && event->type() == QEvent::Paint)
            at = m_watched->mapTo(m_page, QPoint(0, 0));
        return false;
    }

private:
    QWidget* m_watched;
    QWidget* m_page;
};

} // namespace

// `napkin --export page.png --page accounting` drew the presets box, the sliders and the fields beside
// the charts; a slide shows the charts and the answers. The controls come back after the picture.
void TestChartExport::pageLeavesItsControlsOut() {
    QTemporaryDir dir;
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt3-175b")));
    PaintSpy chart(page.memoryChart()->findChild<QWidget*>(), &page); // the plot inside the chart
    QCOMPARE(savePage(page, dir.filePath(QStringLiteral("with.png")), QSize(1024, 768)), QString());
    const int withControls = chart.at.x();
    QCOMPARE(savePage(page, dir.filePath(QStringLiteral("without.png")), QSize(1024, 768), 1.0,
                      page.controlPanel()),
             QString());
    QVERIFY2(withControls > 250, qPrintable(QString::number(withControls)));
    QVERIFY2(chart.at.x() < 40, qPrintable(QString::number(chart.at.x())));
    QVERIFY(!page.controlPanel()->isHidden());
}

#include "tst_chart_export.moc"
