// SPDX-License-Identifier: GPL-3.0-or-later
// Hidden means hidden, and revealed means in view: in presentation mode at a projector's 1024×768 and
// 1280×720, each lecture step before its reveal shows its answer nowhere (the text of every visible
// widget not veiled, and the text items of every chart, read through the geometry the charts expose), and
// after each reveal line the widget holding the answer is whole inside the window's viewport, the caption
// uncut. The step's screen agrees with itself: the Cruncher's "× the peak" divides by the peak, the
// explanation says "N = 70000000000" once. NAPKIN_TOUR_SCREENSHOTS=DIR saves each state.
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/classroom/caption_banner.h"
#include "app/classroom/lecture_tour.h"
#include "app/classroom/lecture_tour_controller.h"
#include "app/shell/main_window.h"
#include "engine/accounting/accounting.h"
#include "engine/numerics/float_format.h"
#include "engine/numerics/float_rounding.h"
#include "engine/numerics/quantity_format.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/explain_pane.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QComboBox>
#include <QGraphicsEffect>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTextEdit>
#include <QtTest>

#include <charconv>

using namespace napkin;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

AccountingResult accountPreset(const char* id) {
    const Preset* p = findPreset(QString::fromLatin1(id));
    AccountingInput in = p->input;
    in.overheads.basis = MemoryBasis::datasheet; // the lecture's convention
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

QString shortest(double v) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    return QString::fromLatin1(buffer, int(result.ptr - buffer));
}

QString hexOf(FloatFormat format, double v) {
    return q(floatBitsHex(format, roundToFormat(format, v).bits));
}

// Each step's answer as the pages print it, derived from the engine here: a number in every format the
// page writes it, or the words that give it away. A text containing one of them gives the answer away.
QStringList spoilers(const QString& id) {
    if (id == QLatin1String("napkin-math")) {
        const AccountingResult r = accountPreset("70b-15t-1024-h100");
        return {q(formatNumber(r.trainingDays->value)), q(formatNumber(r.trainingSeconds->value))};
    }
    if (id == QLatin1String("largest-model")) {
        const AccountingResult r = accountPreset("largest-8-h100");
        // "4.00e10" in the caption, "40,000,000,000 params" in the answers grid.
        return {q(formatNumber(r.maxParameters.value)),
                QLocale(QLocale::English).toString(static_cast<qlonglong>(r.maxParameters.value))};
    }
    if (id == QLatin1String("dtypes")) {
        const double bf16 = roundToFormat(FloatFormat::bf16, 1e-8).value;
        // Not "underflow": fp16's note says its small gradients underflow, what the format is, shown on
        // every step; the class cells are matched whole (exactSpoilers).
        return {hexOf(FloatFormat::fp16, 1e-8), hexOf(FloatFormat::bf16, 1e-8), shortest(bf16),
                q(formatNumber(bf16)), QStringLiteral("(zero)")};
    }
    if (id == QLatin1String("strides"))
        return {QStringLiteral("offset 6"), QStringLiteral("= 6")};
    if (id == QLatin1String("view-error"))
        return {QStringLiteral("not compatible"), QStringLiteral(".reshape("), QStringLiteral("not contiguous")};
    if (id == QLatin1String("matmul-flops"))
        return {QStringLiteral("4.40e13"), QStringLiteral("8.80e13"), QStringLiteral("1.32e14")};
    if (id == QLatin1String("6n"))
        return {QStringLiteral("4.20e11"), QStringLiteral("2.80e11"), QStringLiteral("1.40e11")};
    if (id == QLatin1String("mfu")) {
        const AccountingResult r = accountPreset("70b-15t-1024-h100");
        return {q(formatFlops(0.5 * r.densePeakFlopsPerSecond.value, true))};
    }
    if (id == QLatin1String("cruncher-memory"))
        return {QStringLiteral("496"), QStringLiteral("464")};
    return {QStringLiteral("no spoilers written for this step")};
}

// Texts that give the answer away only as a whole cell: the formats table's class of each stored value.
QStringList exactSpoilers(const QString& id) {
    if (id == QLatin1String("dtypes"))
        return {q(std::string(floatClassName(roundToFormat(FloatFormat::fp16, 1e-8).cls))),
                q(std::string(floatClassName(roundToFormat(FloatFormat::bf16, 1e-8).cls)))};
    return {};
}

bool veiled(const QWidget* w) {
    for (; w; w = w->parentWidget())
        if (w->graphicsEffect())
            return true;
    return false;
}

QString plain(const QString& text) {
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    QString out = text;
    out.remove(tags);
    return out.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
}

// The text a viewer of the window can read now: every visible widget's that is not veiled (the caption
// aside: it asks the question), the items of views, and charts' text items and axis titles.
QStringList readableTexts(MainWindow& window) {
    QStringList texts;
    const CaptionBanner* banner = window.captionBanner();
    for (QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisible() || veiled(w) || w == banner || banner->isAncestorOf(w))
            continue;
        if (auto* label = qobject_cast<QLabel*>(w))
            texts << plain(label->text());
        else if (auto* button = qobject_cast<QAbstractButton*>(w))
            texts << button->text();
        else if (auto* edit = qobject_cast<QLineEdit*>(w))
            texts << edit->text();
        else if (auto* box = qobject_cast<QComboBox*>(w))
            texts << box->currentText();
        else if (auto* text = qobject_cast<QTextEdit*>(w))
            texts << text->toPlainText();
        else if (auto* chart = qobject_cast<ChartView*>(w)) {
            chart->replotNow();
            const ChartLayout g = chart->layoutGeometry();
            texts << g.labelTexts << g.axisTitles;
        }
        if (auto* view = qobject_cast<QAbstractItemView*>(w); view && view->model()) {
            const QAbstractItemModel* m = view->model();
            for (int r = 0; r < m->rowCount(view->rootIndex()); ++r)
                for (int c = 0; c < m->columnCount(view->rootIndex()); ++c)
                    texts << m->index(r, c, view->rootIndex()).data().toString();
        }
    }
    return texts;
}

// Whether all of `w` is inside the window: its box clipped by every parent up to the window.
bool wholeInView(const QWidget* w, const QWidget* window) {
    QRect shown(w->mapTo(window, QPoint(0, 0)), w->size());
    for (const QWidget* p = w->parentWidget(); p && p != window; p = p->parentWidget())
        shown &= QRect(p->mapTo(window, QPoint(0, 0)), p->size());
    shown &= window->rect();
    return shown.size() == w->size();
}

void settle(MainWindow& window, QSize size) {
    for (int k = 0; k < 3; ++k) {
        window.resize(size);
        QCoreApplication::processEvents();
    }
}

void save(MainWindow& window, const QString& name) {
    const QByteArray dir = qgetenv("NAPKIN_TOUR_SCREENSHOTS");
    if (!dir.isEmpty())
        QVERIFY(window.grab().save(QStringLiteral("%1/%2-%3x%4.png")
                                       .arg(QString::fromLocal8Bit(dir), name)
                                       .arg(window.width())
                                       .arg(window.height())));
}

} // namespace

class TestTourSpoilers : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void hiddenThenInView_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    void hiddenThenInView() {
        QFETCH(QSize, size);
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setPresentationMode(true);
        QCoreApplication::processEvents();
        window.setWindowState(Qt::WindowNoState); // the offscreen screen is 800×800: the projector's size
        window.showNormal();
        QVERIFY(window.tour()->isActive());
        const int n = window.tour()->stepCount();
        for (int i = 0; i < n; ++i) {
            const LectureTourStep& step = lectureTourSteps()[std::size_t(i)];
            window.tour()->goTo(i);
            settle(window, size);
            QVERIFY(window.tour()->isAnswerHidden());
            const QStringList texts = readableTexts(window);
            for (const QString& spoiler : spoilers(step.id))
                for (const QString& text : texts)
                    QVERIFY2(!text.contains(spoiler),
                             qPrintable(QStringLiteral("step %1 (%2) before its reveal: “%3” reads “%4”")
                                            .arg(i + 1)
                                            .arg(step.id, spoiler, text.left(120))));
            for (const QString& spoiler : exactSpoilers(step.id))
                QVERIFY2(!texts.contains(spoiler),
                         qPrintable(QStringLiteral("step %1 (%2) before its reveal: a cell reads “%3”")
                                        .arg(i + 1)
                                        .arg(step.id, spoiler)));
            save(window, QStringLiteral("spoiler-step%1-hidden").arg(i + 1));

            // Each reveal line: the answer's widget whole in view, the caption's answer not cut.
            QWidget* answer = window.answerWidget(step.answerField);
            QVERIFY2(answer, qPrintable(step.id));
            for (int line = 0; line < 12; ++line) {
                window.tour()->revealMore();
                settle(window, size);
                QCOMPARE(window.size(), size);
                QVERIFY(!window.tour()->isAnswerHidden());
                QVERIFY2(answer->isVisible() && wholeInView(answer, &window),
                         qPrintable(QStringLiteral("step %1 (%2), %3 lines revealed: the answer is out of view")
                                        .arg(i + 1)
                                        .arg(step.id)
                                        .arg(window.tour()->revealedLines())));
                for (QLabel* label : window.captionBanner()->findChildren<QLabel*>())
                    if (label->isVisible() && label->wordWrap())
                        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                                 qPrintable(QStringLiteral("step %1: the caption is cut: %2")
                                                .arg(i + 1)
                                                .arg(label->text().left(80))));
            }
            save(window, QStringLiteral("spoiler-step%1-revealed").arg(i + 1));
        }
        window.setPresentationMode(false);
    }

    // One screen, one story: the Cruncher's chart says how far off the scale the capacity is in peaks
    // (80e9 / 464 B, not 80e9 / the 496-B sum); the answer names both numbers; the dense model's
    // explanation says N once.
    void stepScreensAgree() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tour()->start(0);
        const QString explain = window.accountingPage()->explainPane()->plainText();
        QVERIFY2(explain.contains(QStringLiteral("N = 70000000000")), qPrintable(explain.left(300)));
        QVERIFY2(!explain.contains(QStringLiteral("N = N")), qPrintable(explain.left(300)));

        const int last = window.tour()->stepCount() - 1;
        QCOMPARE(lectureTourSteps()[std::size_t(last)].id, QStringLiteral("cruncher-memory"));
        window.tour()->goTo(last);
        window.tour()->revealMore();
        const AccountingResult r = [] {
            const Preset* p = findPreset(QStringLiteral("cruncher"));
            AccountingInput in = p->input;
            in.overheads.basis = MemoryBasis::datasheet;
            return account(in, *GpuCatalog::builtIn().find(in.gpu));
        }();
        QCOMPARE(r.memory.total.value, 496.0); // the lecture's sum
        QCOMPARE(r.peakMemory.value, 464.0);   // the step's peak
        const QString caption = window.captionBanner()->answerText();
        QVERIFY2(caption.contains(QStringLiteral("= 496 B")) && caption.contains(QStringLiteral("464 B")),
                 qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("80 GB")) && caption.contains(QStringLiteral("no overheads")),
                 qPrintable(caption)); // the lecture's convention, said
        MemoryTimelineChart* timeline = window.accountingPage()->timelineChart();
        timeline->replotNow();
        const QString title = timeline->layoutGeometry().axisTitles.join(QLatin1Char(' '));
        const QString ratio = q(formatNumber(r.capacityBytes.value / r.peakMemory.value));
        QVERIFY2(title.simplified().contains(ratio + QStringLiteral(" × the peak")),
                 qPrintable(title + QStringLiteral(" lacks ") + ratio));
        window.tour()->stop();
    }
};

QTEST_MAIN(TestTourSpoilers)
#include "tst_tour_spoilers.moc"
