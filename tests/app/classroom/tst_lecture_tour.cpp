// SPDX-License-Identifier: GPL-3.0-or-later
// The lecture tour: a table whose every step shows its page and a caption whose answer is the engine's
// number, stepped through with the keyboard in an offscreen main window; F5 / Esc presentation mode.
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/classroom/caption_banner.h"
#include "app/classroom/lecture_tour.h"
#include "app/classroom/lecture_tour_controller.h"
#include "app/classroom/tour_file_controller.h"
#include "app/shell/main_window.h"
#include "app/tensor/tensor_page.h"
#include "engine/accounting/accounting.h"
#include "engine/numerics/float_rounding.h"
#include "engine/numerics/quantity_format.h"
#include "tests/support/answer_text_size.h"
#include "widgets/charts/chart_view.h"
#include <QComboBox>

#include <QFile>
#include <QGraphicsEffect>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <charconv>

using namespace napkin;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// The shortest text that reads back as `v`, as the Number formats page writes stored values.
QString shortest(double v) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    return QString::fromLatin1(buffer, int(result.ptr - buffer));
}

AccountingResult accountPreset(const char* id) {
    const Preset* p = findPreset(QString::fromLatin1(id));
    return account(p->input, *GpuCatalog::builtIn().find(p->input.gpu));
}

// What each step's answer must say, computed here from the engine, not copied from the caption code.
QStringList expectedFragments(const QString& id) {
    if (id == QLatin1String("napkin-math")) {
        const AccountingResult r = accountPreset("70b-15t-1024-h100");
        return {q(formatFlops(r.trainingFlops->value)),
                q(formatNumber(r.trainingDays->value)) + QStringLiteral(" days"), QStringLiteral("6.30e24")};
    }
    if (id == QLatin1String("largest-model")) {
        const AccountingResult r = accountPreset("largest-8-h100");
        // The lecture's convention (the datasheet's 80e9 B per GPU, no overheads), and the tour says so.
        return {q(r.bytesPerParameter.ledger), QStringLiteral("16 B"), QStringLiteral("4.00e10"),
                q(formatNumber(r.maxParameters.value)), QStringLiteral("the lecture's convention")};
    }
    if (id == QLatin1String("dtypes"))
        return {QStringLiteral("fp16(1e-8) = 0 (zero)"),
                QStringLiteral("bf16(1e-8) = %1 (normal)")
                    .arg(shortest(roundToFormat(FloatFormat::bf16, 1e-8).value))};
    if (id == QLatin1String("strides"))
        return {QStringLiteral("1·4 + 2·1 = 6"), QStringLiteral("[4, 1]")};
    if (id == QLatin1String("view-error"))
        return {QStringLiteral("Step 2 fails"), QStringLiteral("view"), QStringLiteral(".contiguous()")};
    if (id == QLatin1String("matmul-flops"))
        return {QStringLiteral("4.40e13"), QStringLiteral("8.80e13")}; // 2·B·(D·D + D·K), backward twice
    if (id == QLatin1String("6n"))
        return {QStringLiteral("6 × 7.00e10"), QStringLiteral("4.20e11")};
    if (id == QLatin1String("mfu")) {
        const AccountingResult r = accountPreset("70b-15t-1024-h100");
        return {q(formatFlops(r.densePeakFlopsPerSecond.value, true)),
                q(formatFlops(0.5 * r.densePeakFlopsPerSecond.value, true))};
    }
    if (id == QLatin1String("cruncher-memory"))
        return {QStringLiteral("= 496 B"), QStringLiteral("432")};
    return {QStringLiteral("no expectation written for this step")};
}

void checkStep(MainWindow& window, int index) {
    const LectureTourStep& step = lectureTourSteps()[static_cast<std::size_t>(index)];
    QCOMPARE(window.tour()->currentIndex(), index);
    QVERIFY(window.tour()->isActive());
    QVERIFY(!window.captionBanner()->isHidden());
    const char* expectedClass = step.page == ScenarioPage::accounting ? "AccountingPage"
                                : step.page == ScenarioPage::formats  ? "NumberFormatsPage"
                                : step.page == ScenarioPage::tensor   ? "TensorPage"
                                : step.page == ScenarioPage::roofline ? "RooflinePage"
                                                                      : "BenchmarksPage";
    QCOMPARE(QString::fromLatin1(window.pages()->currentWidget()->metaObject()->className()),
             QString::fromLatin1(expectedClass));
    QCOMPARE(window.captionBanner()->questionText(), step.question);
    QCOMPARE(window.captionBanner()->stepText(),
             QStringLiteral("%1 / %2").arg(index + 1).arg(window.tour()->stepCount()));
    const QString answer = window.captionBanner()->answerText();
    for (const QString& fragment : expectedFragments(step.id))
        QVERIFY2(answer.contains(fragment),
                 qPrintable(QStringLiteral("step %1: “%2” not in “%3”").arg(step.id, fragment, answer)));
}

} // namespace

class TestLectureTour : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void tableIsComplete() {
        const auto& steps = lectureTourSteps();
        QVERIFY(steps.size() >= 7);
        QSet<QString> ids;
        for (const LectureTourStep& s : steps) {
            QVERIFY(!s.id.isEmpty());
            QVERIFY2(!ids.contains(s.id), qPrintable(s.id));
            ids.insert(s.id);
            QVERIFY(!s.question.isEmpty());
            QVERIFY(s.answer);
            QCOMPARE(s.setup.page, s.page);
        }
        // The lecture's questions, in the lecture's order.
        const QStringList order{
            QStringLiteral("napkin-math"),    QStringLiteral("dtypes"), QStringLiteral("strides"),
            QStringLiteral("matmul-flops"),   QStringLiteral("6n"),     QStringLiteral("mfu"),
            QStringLiteral("cruncher-memory")};
        int last = -1;
        for (const QString& id : order) {
            int at = -1;
            for (std::size_t i = 0; i < steps.size(); ++i)
                if (steps[i].id == id)
                    at = static_cast<int>(i);
            QVERIFY2(at > last, qPrintable(id));
            last = at;
        }
    }

    // Right / PageDown forward through every step, Left / PageUp back, Esc leaves.
    void keyboardVisitsEveryStep() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Active, so that switching tabs moves keyboard focus as it does on a real screen (into the
        // page's first line edit, where arrows would be the field's).
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.accountingPage()->presetBox()->setFocus(); // as after a click on the page
        QVERIFY(window.captionBanner()->isHidden());
        window.tour()->setHidingEnabled(false); // the answers at once, as before predict-then-reveal
        window.tour()->start();
        const int n = window.tour()->stepCount();
        for (int i = 0; i < n; ++i) {
            checkStep(window, i);
            if (i + 1 < n)
                QTest::keyClick(&window, i % 2 ? Qt::Key_Right : Qt::Key_PageDown);
        }
        QTest::keyClick(&window, Qt::Key_PageDown); // the end of the tour, on the last step's page
        QCOMPARE(window.tour()->currentIndex(), n - 1);
        QVERIFY(window.tour()->isAtEnd());
        QTest::keyClick(&window, Qt::Key_Left); // back to the last step
        checkStep(window, n - 1);
        for (int i = n - 1; i > 0; --i) {
            QTest::keyClick(&window, i % 2 ? Qt::Key_Left : Qt::Key_PageUp);
            checkStep(window, i - 1);
        }
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.tour()->isActive());
        QVERIFY(window.captionBanner()->isHidden());
        // Once the tour is over, arrow keys belong to the pages again.
        QTest::keyClick(&window, Qt::Key_PageDown);
        QCOMPARE(window.tour()->currentIndex(), 0);
    }

    // Arrows typed into a text field move its cursor, not the tour.
    void arrowsInTextFieldsStayThere() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tour()->start(2);
        auto* edit = window.pages()->currentWidget()->findChild<QLineEdit*>();
        QVERIFY(edit);
        edit->setFocus();
        QTRY_VERIFY(edit->hasFocus());
        QTest::keyClick(edit, Qt::Key_Right);
        QCOMPARE(window.tour()->currentIndex(), 2);
        QTest::keyClick(edit, Qt::Key_PageDown);
        QCOMPARE(window.tour()->currentIndex(), 3);
        window.tour()->stop();
    }

    // The lecture's steps come from the tour file shipped as a resource, each naming an answer it reveals.
    void lectureTourIsTheShippedFile() {
        QFile file(lectureTourResource());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        const TourParse parsed = parseTour(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        QVERIFY2(parsed.ok(), parsed.error.c_str());
        QVERIFY(parsed.warnings.empty());
        QCOMPARE(parsed.tour->steps.size(), lectureTourSteps().size());
        QCOMPARE(lectureTourSteps().size(), std::size_t{9});
        for (const LectureTourStep& step : lectureTourSteps())
            QVERIFY2(!step.answerField.empty(), qPrintable(step.id));
    }

    // Predict, then reveal: the answer hidden and the page's answers veiled; the guess judged; Space
    // reveals the derivation line by line until the whole caption is there.
    void predictThenReveal() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.tour()->isHidingEnabled());
        window.tour()->start(0);
        QVERIFY(window.tour()->isAnswerHidden());
        QVERIFY(!window.captionBanner()->answerText().contains(QStringLiteral("6.30e24")));
        QVERIFY(window.captionBanner()->guessField()->isVisible());
        int veiled = 0;
        for (QWidget* w : window.pages()->currentWidget()->findChildren<QWidget*>())
            veiled += w->graphicsEffect() != nullptr;
        QVERIFY(veiled > 0);

        QLineEdit* guess = window.captionBanner()->guessField();
        guess->setFocus();
        QTest::keyClicks(guess, QStringLiteral("14 days"));
        QTest::keyClick(guess, Qt::Key_Return);
        QVERIFY(!window.tour()->isAnswerHidden());
        const AccountingResult r = accountPreset("70b-15t-1024-h100");
        const QString answer = window.captionBanner()->answerText();
        QVERIFY2(answer.contains(q(formatNumber(r.trainingDays->value)) + QStringLiteral(" days")),
                 qPrintable(answer));
        QVERIFY2(answer.contains(QStringLiteral("too low")), qPrintable(answer)); // 14 days for 143.9
        QVERIFY2(answer.contains(QStringLiteral("orders of magnitude")), qPrintable(answer));
        for (QWidget* w : window.pages()->currentWidget()->findChildren<QWidget*>())
            QVERIFY(!w->graphicsEffect());

        // Space: one derivation line per press, then nothing more.
        QCOMPARE(window.tour()->revealedLines(), 0);
        QTest::keyClick(&window, Qt::Key_Space);
        QCOMPARE(window.tour()->revealedLines(), 1);
        for (int i = 0; i < 10; ++i)
            QTest::keyClick(&window, Qt::Key_Space);
        const QString all = window.captionBanner()->answerText();
        for (const QString& fragment : expectedFragments(QStringLiteral("napkin-math")))
            QVERIFY2(all.contains(fragment), qPrintable(fragment + QStringLiteral(" not in ") + all));
        // The next step opens hidden again.
        QTest::keyClick(&window, Qt::Key_Right);
        QCOMPARE(window.tour()->currentIndex(), 1);
        QVERIFY(window.tour()->isAnswerHidden());
        window.tour()->stop();
    }

    // A guess that is not a quantity is refused with one line; nothing is revealed.
    void nonsenseGuessChangesNothing() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tour()->start(0);
        window.tour()->submitGuess(QStringLiteral("a fortnight-ish"));
        QVERIFY(window.tour()->isAnswerHidden());
        const QString error = window.captionBanner()->guessErrorText();
        QCOMPARE(window.captionBanner()->answerText(), error); // in place of the prompt; no answer shown
        QVERIFY(!error.contains(QStringLiteral("143.9")));
        QVERIFY(window.captionBanner()->guessField()->isVisible());
        QVERIFY2(error.contains(QStringLiteral("144 days")), qPrintable(error)); // says what it reads
        QVERIFY(!error.contains(QLatin1Char('\n')));
        window.tour()->stop();
    }

    // File ▸ Open tour…: a good file replaces the steps; a bad one changes nothing.
    void openTourFile() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile badFile(bad);
        QVERIFY(badFile.open(QIODevice::WriteOnly));
        badFile.write(
            R"({"format": "napkin-tour", "version": 1, "steps": [{"page": "kitchen", "question": "q"}]})");
        badFile.close();
        const napkin::Scenario before = window.scenario();
        const QString error = window.tourFiles()->openTour(bad);
        QVERIFY2(error.contains(QStringLiteral("steps[0].page")), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
        QCOMPARE(window.tour()->stepCount(), 9);
        QVERIFY(!window.tour()->isActive());
        QVERIFY(window.scenario() == before);

        const QString good = dir.filePath(QStringLiteral("good.json"));
        QFile goodFile(good);
        QVERIFY(goodFile.open(QIODevice::WriteOnly));
        goodFile.write(R"({"format": "napkin-tour", "version": 1, "title": "Mine", "steps": [
            {"page": "formats", "question": "fp16 of 1e-9?", "edit": {"formats": {"value": 1e-9}},
             "answer": "dtype-underflow"},
            {"page": "tensor", "question": "Where is x[1, 2]?",
             "edit": {"tensor": {"shape": "5,7", "expression": "x[1, 2]"}}, "answer": "storage-offset"}]})");
        goodFile.close();
        QCOMPARE(window.tourFiles()->openTour(good), QString());
        QVERIFY(window.tour()->isActive());
        QCOMPARE(window.tour()->stepCount(), 2);
        QCOMPARE(window.scenario().formats.value, 1e-9);
        QTest::keyClick(&window, Qt::Key_Right);
        QCOMPARE(window.scenario().tensor.shape, std::string("5,7"));
        window.tour()->submitGuess(QStringLiteral("9"));
        QVERIFY2(window.captionBanner()->answerText().contains(QStringLiteral("right")),
                 qPrintable(window.captionBanner()->answerText())); // 1·7 + 2·1
        window.tour()->stop();
    }

    // Recording: two pages as they are now, saved, reopened: the same steps replay.
    void recordSaveReopen() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        napkin::Scenario s = window.scenario();
        s.page = ScenarioPage::tensor;
        s.tensor.shape = "3,8";
        s.tensor.expression = "x.t()";
        window.applyScenario(s);
        window.tourFiles()->recordStep(QStringLiteral("What are the strides of x.t()?"), QString());
        s.page = ScenarioPage::formats;
        s.formats.value = 65520;
        window.applyScenario(s);
        window.tourFiles()->recordStep(QStringLiteral("What is fp16(65520)?"),
                                       QStringLiteral("dtype-underflow"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("recorded.json"));
        QCOMPARE(window.tourFiles()->saveRecordedTour(path, QStringLiteral("Recorded")), QString());

        MainWindow other; // a fresh window replays it
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        QCOMPARE(other.tourFiles()->openTour(path), QString());
        QCOMPARE(other.tour()->stepCount(), 2);
        QCOMPARE(other.scenario().page, ScenarioPage::tensor);
        QCOMPARE(other.scenario().tensor.shape, std::string("3,8"));
        QCOMPARE(other.scenario().tensor.expression, std::string("x.t()"));
        QCOMPARE(other.captionBanner()->questionText(), QStringLiteral("What are the strides of x.t()?"));
        other.tour()->next();
        QCOMPARE(other.scenario().page, ScenarioPage::formats);
        QCOMPARE(other.scenario().formats.value, 65520.0);
        QVERIFY(other.tour()->isAnswerHidden());
        other.tour()->stop();
    }

    // Presentation mode at a projector's sizes: the question, the guess field and the revealed answer
    // with its whole derivation fit the banner, nothing cut. NAPKIN_TOUR_SCREENSHOTS=DIR saves each state.
    void readableOnProjectors_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    void readableOnProjectors() {
        QFETCH(QSize, size);
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setPresentationMode(true);
        QCoreApplication::processEvents();
        window.setWindowState(Qt::WindowNoState); // the offscreen screen is 800×800: the projector's size
        window.showNormal();
        const auto settle = [&] {
            for (int i = 0; i < 3; ++i) {
                window.resize(size);
                QCoreApplication::processEvents();
            }
        };
        const auto fits = [&](const char* state) {
            settle();
            QCOMPARE(window.size(), size);
            CaptionBanner* banner = window.captionBanner();
            for (QLabel* label : banner->findChildren<QLabel*>()) {
                if (!label->isVisible())
                    continue;
                const int needed =
                    label->wordWrap() ? label->heightForWidth(label->width()) : label->sizeHint().height();
                QVERIFY2(label->height() >= needed,
                         qPrintable(QStringLiteral("%1: “%2” needs %3 px, has %4")
                                        .arg(QLatin1String(state), label->text().left(40))
                                        .arg(needed)
                                        .arg(label->height())));
                QVERIFY2(label->width() >= label->minimumSizeHint().width() || label->wordWrap(),
                         qPrintable(label->text()));
            }
            QVERIFY(banner->geometry().bottom() < window.height() / 2 + 120); // the page stays in view
            const QByteArray dir = qgetenv("NAPKIN_TOUR_SCREENSHOTS");
            if (!dir.isEmpty())
                QVERIFY(window.grab().save(QStringLiteral("%1/tour-%2-%3x%4.png")
                                               .arg(QString::fromLocal8Bit(dir), QLatin1String(state))
                                               .arg(size.width())
                                               .arg(size.height())));
        };
        QVERIFY(window.tour()->isActive());
        fits("predict");
        QVERIFY(window.captionBanner()->guessField()->isVisible());
        window.tour()->submitGuess(QStringLiteral("40 days"));
        for (int i = 0; i < 10; ++i)
            window.tour()->revealMore();
        fits("revealed");
        window.setPresentationMode(false);
    }

    // The tour shows its answer: in presentation mode at a projector's sizes, each step of the lecture
    // brings the widget that holds its answer inside the window's viewport (not scrolled away in a panel)
    // and draws its text at least as large as the caption's answer. NAPKIN_TOUR_SCREENSHOTS=DIR saves each.
    void answerInView_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    void answerInView() {
        QFETCH(QSize, size);
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setPresentationMode(true);
        QCoreApplication::processEvents();
        window.setWindowState(Qt::WindowNoState); // the offscreen screen is 800×800: the projector's size
        window.showNormal();
        window.tour()->setHidingEnabled(false); // the answer shown, as after the reveal
        const int n = window.tour()->stepCount();
        QCOMPARE(n, int(lectureTourSteps().size()));
        for (int i = 0; i < n; ++i) {
            const LectureTourStep& step = lectureTourSteps()[std::size_t(i)];
            window.tour()->goTo(i);
            for (int k = 0; k < 3; ++k) {
                window.resize(size);
                QCoreApplication::processEvents();
            }
            QCOMPARE(window.size(), size);
            QWidget* answer = window.answerWidget(step.answerField);
            QVERIFY2(answer, qPrintable(step.id));
            QVERIFY2(answer->isVisible(), qPrintable(step.id));
            QVERIFY2(window.pages()->currentWidget()->isAncestorOf(answer), qPrintable(step.id));
            // What of it a viewer sees: its box clipped by every parent up to the window.
            QRect shown(answer->mapTo(&window, QPoint(0, 0)), answer->size());
            for (QWidget* p = answer->parentWidget(); p && p != &window; p = p->parentWidget())
                shown &= QRect(p->mapTo(&window, QPoint(0, 0)), p->size());
            shown &= window.rect();
            QVERIFY2(shown.size() == answer->size(),
                     qPrintable(QStringLiteral("step %1 (%2): %3×%4 of its %5×%6 px in view")
                                    .arg(i + 1)
                                    .arg(step.id)
                                    .arg(shown.width())
                                    .arg(shown.height())
                                    .arg(answer->width())
                                    .arg(answer->height())));
            // Text at least the caption answer's size; a chart, whole, with data, nothing cut (step 8's was
            // the Benchmarks page's throughput chart, empty before a sweep is run).
            auto* chart = qobject_cast<ChartView*>(answer);
            const int pixels = QFontInfo(answer->font()).pixelSize();
            QVERIFY2(
                chart || pixels >= kMinimumAnswerPixels,
                qPrintable(QStringLiteral("step %1 (%2): %3 px text").arg(i + 1).arg(step.id).arg(pixels)));
            if (chart) {
                chart->replotNow();
                const ChartLayout g = chart->layoutGeometry();
                QVERIFY2(!g.data.empty(), qPrintable(step.id + QStringLiteral(": an empty chart")));
                QVERIFY2(g.cutText.isEmpty(),
                         qPrintable(step.id + QStringLiteral(": cut ") + g.cutText.join(',')));
            }
            const QByteArray dir = qgetenv("NAPKIN_TOUR_SCREENSHOTS");
            if (!dir.isEmpty())
                QVERIFY(window.grab().save(QStringLiteral("%1/tour-step%2-%3x%4.png")
                                               .arg(QString::fromLocal8Bit(dir))
                                               .arg(i + 1)
                                               .arg(size.width())
                                               .arg(size.height())));
        }
        // The last step's answer gets its own size back when the tour ends.
        QWidget* last = window.answerWidget(lectureTourSteps().back().answerField);
        const int enlarged = QFontInfo(last->font()).pixelSize();
        window.setPresentationMode(false);
        QVERIFY(QFontInfo(last->font()).pixelSize() < enlarged);
        QCOMPARE(last->font().pointSizeF(), window.font().pointSizeF());
    }

    // Leaving the tour gives back the setup from before it: every page's controls and the page in front
    // (the tour's 70B on 1024 H100s stayed on the Accounting page, the user's own model gone).
    void leavingRestoresTheSetup() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        napkin::Scenario mine = window.scenario();
        mine.page = ScenarioPage::tensor;
        mine.tensor.shape = "3,5";
        mine.tensor.expression = "x.t()";
        mine.formats.value = 3.25;
        window.applyScenario(mine);
        window.accountingPage()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        const napkin::Scenario before = window.scenario();
        // Where each panel was scrolled: the tour scrolls answers into view, and gives the panels back.
        const auto scrolled = [&window] {
            QList<int> values;
            for (QScrollArea* area : window.findChildren<QScrollArea*>())
                values << area->verticalScrollBar()->value();
            return values;
        };
        const QList<int> scrolledBefore = scrolled();
        window.tour()->start();
        for (int i = 0; i < window.tour()->stepCount(); ++i) {
            window.tour()->next();
            QCoreApplication::processEvents();
        }
        QVERIFY(!(window.scenario() == before));
        QVERIFY(scrolled() != scrolledBefore);
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.tour()->isActive());
        QVERIFY(window.scenario() == before);
        QCOMPARE(scrolled(), scrolledBefore);
        QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget*>(window.tensorPage()));
        // The same through presentation mode (F5, Esc).
        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(window.tour()->isActive());
        QTest::keyClick(&window, Qt::Key_Right);
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.isPresentationMode());
        QVERIFY(window.scenario() == before);
    }

    void f5PresentationAndEscape() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setGeometry(QRect(40, 60, 1000, 700));
        const QRect normalGeometry = window.geometry();
        const double normalFont = window.font().pointSizeF();
        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(window.isPresentationMode());
        QVERIFY(window.tour()->isActive());
        QCOMPARE(window.tour()->currentIndex(), 0);
        QVERIFY(window.font().pointSizeF() > normalFont * 1.3);
        // High contrast: pure black on white (or the reverse).
        const QColor text = window.palette().color(QPalette::WindowText);
        const QColor paper = window.palette().color(QPalette::Window);
        QVERIFY(std::abs(text.lightness() - paper.lightness()) == 255);
        QTest::keyClick(&window, Qt::Key_Right);
        QCOMPARE(window.tour()->currentIndex(), 1);
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.isPresentationMode());
        QVERIFY(!window.tour()->isActive());
        QCOMPARE(window.font().pointSizeF(), normalFont);
        QCOMPARE(window.geometry(), normalGeometry); // back where it was, not lower, not cut
    }
};

QTEST_MAIN(TestLectureTour)
#include "tst_lecture_tour.moc"
