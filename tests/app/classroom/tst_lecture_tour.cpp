// The lecture tour: a table whose every step shows its page and a caption whose answer is the engine's
// number, stepped through with the keyboard in an offscreen main window; F5 / Esc presentation mode.
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/classroom/caption_banner.h"
#include "app/classroom/lecture_tour.h"
#include "app/classroom/lecture_tour_controller.h"
#include "app/shell/main_window.h"
#include "engine/accounting/accounting.h"
#include "engine/numerics/float_rounding.h"
#include "engine/numerics/quantity_format.h"
#include <QComboBox>

#include <QLineEdit>
#include <QSet>
#include <QStandardPaths>
#include <QTabWidget>
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
                                                                      : "BenchmarksPage";
    QCOMPARE(QString::fromLatin1(window.pages()->currentWidget()->metaObject()->className()),
             QString::fromLatin1(expectedClass));
    QCOMPARE(window.captionBanner()->questionText(), step.question);
    QCOMPARE(window.captionBanner()->stepText(),
             QStringLiteral("%1 / %2").arg(index + 1).arg(LectureTourController::stepCount()));
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
            QVERIFY(s.edit && s.answer);
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
        window.tour()->start();
        const int n = LectureTourController::stepCount();
        for (int i = 0; i < n; ++i) {
            checkStep(window, i);
            if (i + 1 < n)
                QTest::keyClick(&window, i % 2 ? Qt::Key_Right : Qt::Key_PageDown);
        }
        QTest::keyClick(&window, Qt::Key_PageDown); // stays on the last step
        QCOMPARE(window.tour()->currentIndex(), n - 1);
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
