// SPDX-License-Identifier: GPL-3.0-or-later
// A tour step is a whole setup: started from any window state (a custom transformer with an FFN width of
// 40, another GPU, an Apple part no precision runs on, a field holding text it cannot read), the lecture
// tour reveals, step by step, byte for byte the answer a fresh window reveals, and Esc gives the window's
// state back. → on the last step ends the tour without hiding its answer; the keys the README names are
// the keys the tour reads.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/classroom/caption_banner.h"
#include "app/classroom/guess_strip.h"
#include "app/classroom/lecture_tour.h"
#include "app/classroom/lecture_tour_controller.h"
#include "app/classroom/tour_answers.h"
#include "app/classroom/tour_keys.h"
#include "app/formats/number_formats_page.h"
#include "app/shell/main_window.h"
#include "widgets/controls/number_field.h"

#include <QFile>
#include <QGraphicsEffect>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace napkin;

namespace {

// What a step shows once everything is revealed: the caption, and every control of every page (the
// user's own GPUs aside: the window keeps those, and no lecture step names one).
struct Revealed {
    QString caption;
    std::string setup;
};

Revealed revealAll(MainWindow& window, int index) {
    window.tour()->goTo(index);
    for (int i = 0; i < 40; ++i)
        window.tour()->revealMore();
    Scenario shown = window.scenario();
    shown.gpus = {};
    return {window.captionBanner()->answerText(), writeScenario(shown)};
}

// A window state as a user might leave it before starting the tour, from a seed: every page's controls
// moved, the accounting model a custom transformer, a GPU other than the lecture's (an Apple part that no
// precision runs on, for one), and text typed into fields that cannot be read as a number.
Scenario messyScenario(unsigned seed) {
    std::mt19937 random(seed);
    const auto pick = [&random](auto... options) {
        const std::array all{options...};
        return all[std::uniform_int_distribution<std::size_t>(0, all.size() - 1)(random)];
    };
    Scenario s;
    AccountingInput& in = s.accounting.input;
    in.model.kind = ModelKind::transformer;
    in.model.ffnDim = 40; // the leftover: an FFN 40 wide
    in.model.dModel = pick(8.0, 16.0, 64.0);
    in.model.heads = pick(1.0, 2.0, 4.0);
    in.model.layers = pick(1.0, 2.0, 3.0);
    in.model.vocab = pick(50.0, 100.0);
    in.model.seq = pick(4.0, 16.0);
    in.model.kvHeads = 1;
    in.batch = pick(1.0, 3.0, 7.0);
    in.gpu = pick(std::string("T4"), std::string("A100-SXM"), std::string("M4-Max-128GB"));
    in.gpus = pick(1.0, 3.0, 16.0);
    in.mfu = pick(0.13, 0.37, 0.9);
    in.precision = pick(PrecisionRecipe::fp16, PrecisionRecipe::mixedFp16, PrecisionRecipe::fp8Mixed);
    in.optimizer = pick(OptimizerKind::sgd, OptimizerKind::rmsprop, OptimizerKind::momentum);
    in.recompute = pick(Recompute::selective, Recompute::full);
    in.trainingTokens = pick(1e6, 3e12);
    s.accounting.tokensShown = *in.trainingTokens;
    s.accounting.binaryUnits = true;
    s.accounting.preset.clear();
    s.formats.value = pick(65520.0, -3.25, 1e-40);
    s.formats.saturate = true;
    s.tensor.shape = pick(std::string("3,5,7"), std::string("6"), std::string("2,2,2,2"));
    s.tensor.expression = pick(std::string("x.t()"), std::string("x.view(7)"), std::string("x[1]"));
    s.tensor.dtype = "fp16";
    s.roofline.device = pick(std::string("T4"), std::string("A100-SXM"));
    s.roofline.dtype = ComputeType::fp32;
    s.inference.input.batch = 5;
    s.page = pick(ScenarioPage::accounting, ScenarioPage::tensor, ScenarioPage::formats, ScenarioPage::roofline);
    return s;
}

// Typed, never committed: what a field holds while the user is still at it.
void typeInto(QLineEdit* edit, const QString& text) {
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

} // namespace

class TestTourSetup : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The tour fuzz: a few seeded window states, every step visited in a shuffled order; each reveals
    // what a fresh window reveals, its pages set the same, and Esc gives the state back.
    void answersAsAFreshWindowDoes() {
        std::vector<Revealed> fresh;
        {
            MainWindow window;
            window.tour()->start(0);
            for (int i = 0; i < window.tour()->stepCount(); ++i)
                fresh.push_back(revealAll(window, i));
            window.tour()->stop();
        }
        QCOMPARE(int(fresh.size()), int(lectureTourSteps().size()));
        // The lecture's answers, as a fresh window gives them (tst_lecture_tour derives them from the
        // engine): the leftover state answered "= 0.1478 days" here.
        QVERIFY2(fresh[0].caption.contains(QStringLiteral("143.9 days")), qPrintable(fresh[0].caption));
        for (unsigned seed : {1u, 2u, 3u}) {
            MainWindow window;
            const Scenario messy = messyScenario(seed);
            window.applyScenario(messy);
            typeInto(window.accountingPage()->controls()->batchField()->lineEdit(), QStringLiteral("banana"));
            typeInto(window.numberFormatsPage()->valueEdit(), QStringLiteral("1e-9x"));
            const Scenario before = window.scenario();
            std::vector<int> order(fresh.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = static_cast<int>(i);
            std::shuffle(order.begin(), order.end(), std::mt19937(seed));
            window.tour()->start(order.front());
            for (int i : order) {
                const Revealed shown = revealAll(window, i);
                const QString where = QStringLiteral("seed %1, step %2 (%3)")
                                          .arg(seed)
                                          .arg(i + 1)
                                          .arg(lectureTourSteps()[std::size_t(i)].id);
                QVERIFY2(shown.caption == fresh[std::size_t(i)].caption,
                         qPrintable(where + QStringLiteral(": “%1”, fresh “%2”")
                                                .arg(shown.caption, fresh[std::size_t(i)].caption)));
                QVERIFY2(shown.setup == fresh[std::size_t(i)].setup,
                         qPrintable(where + QStringLiteral(": the pages are not set as in a fresh window")));
            }
            QTest::keyClick(&window, Qt::Key_Escape);
            QVERIFY(!window.tour()->isActive());
            QVERIFY2(window.scenario() == before, qPrintable(QStringLiteral("seed %1: not given back").arg(seed)));
        }
    }

    // → on the last step: the end of the tour, its answer still said (it used to go to the last step
    // again, hidden); ← goes back to the step as it was, Esc leaves.
    void lastStepEndsTheTour() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const int last = window.tour()->stepCount() - 1;
        window.tour()->start(last);
        QVERIFY(window.tour()->isAnswerHidden());
        QTest::keyClick(&window, Qt::Key_Space);
        const QString revealed = window.captionBanner()->answerText();
        QVERIFY2(revealed.contains(QStringLiteral("496 B")), qPrintable(revealed));
        QTest::keyClick(&window, Qt::Key_Right);
        QVERIFY(window.tour()->isActive());
        QVERIFY(!window.tour()->isAnswerHidden());
        QVERIFY2(window.captionBanner()->questionText().contains(QStringLiteral("End of the tour")),
                 qPrintable(window.captionBanner()->questionText()));
        QVERIFY2(window.captionBanner()->answerText().contains(QStringLiteral("496 B")),
                 qPrintable(window.captionBanner()->answerText()));
        for (QWidget* w : window.findChildren<QWidget*>())
            QVERIFY2(!w->graphicsEffect(), w->metaObject()->className());
        QTest::keyClick(&window, Qt::Key_PageDown); // still the end
        QVERIFY(window.tour()->isAtEnd());
        QTest::keyClick(&window, Qt::Key_Left);
        QCOMPARE(window.tour()->currentIndex(), last);
        QVERIFY(!window.tour()->isAtEnd());
        QCOMPARE(window.captionBanner()->answerText(), revealed);
        // The end of a tour that never revealed its last answer shows it too.
        window.tour()->goTo(last);
        QVERIFY(window.tour()->isAnswerHidden());
        window.tour()->next();
        QVERIFY(window.captionBanner()->answerText().contains(QStringLiteral("496 B")));
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.tour()->isActive());
    }

    // Enter reveals as Space does, outside the guess field; in it, Enter judges the guess and reveals.
    void enterReveals() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tour()->start(0);
        QVERIFY(window.tour()->isAnswerHidden());
        QTest::keyClick(&window, Qt::Key_Return);
        QVERIFY(!window.tour()->isAnswerHidden());
        QCOMPARE(window.tour()->revealedLines(), 0);
        QTest::keyClick(&window, Qt::Key_Enter);
        QCOMPARE(window.tour()->revealedLines(), 1);
        window.tour()->next();
        QLineEdit* guess = window.captionBanner()->guessField();
        guess->setFocus();
        QTest::keyClicks(guess, QStringLiteral("40B"));
        QTest::keyClick(guess, Qt::Key_Return);
        QVERIFY(!window.tour()->isAnswerHidden());
        QVERIFY2(window.captionBanner()->answerText().contains(QStringLiteral("You said 40B")),
                 qPrintable(window.captionBanner()->answerText()));
        QCOMPARE(window.tour()->revealedLines(), 0); // the field's Enter did not go on to reveal a line
        // Enter in the empty field reveals, as everywhere in the tour.
        window.tour()->next();
        guess->setFocus();
        QTest::keyClick(guess, Qt::Key_Return);
        QVERIFY(!window.tour()->isAnswerHidden());
        QCOMPARE(window.tour()->revealedLines(), 0);
        window.tour()->stop();
    }

    // Several guesses from the room, separated by ';': each judged, and drawn against the answer on a
    // log scale (who was how far off); the next step starts without them.
    void severalGuessesOnALogStrip() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tour()->start(0); // 143.9 days
        GuessStrip* strip = window.captionBanner()->guessStrip();
        QVERIFY(strip->isHidden());
        window.tour()->submitGuess(QStringLiteral("40 days; 1 year; 144 days"));
        QVERIFY(!window.tour()->isAnswerHidden());
        const QString caption = window.captionBanner()->answerText();
        QCOMPARE(caption.count(QStringLiteral("You said")), 3);
        QVERIFY2(caption.contains(QStringLiteral("You said 144 days: right")), qPrintable(caption));
        QVERIFY(strip->isVisible());
        QCOMPARE(strip->drawnGuesses(), 3);
        const double answer = tourAnswer("training-time", window.scenario()).value.value_or(0);
        QVERIFY(answer > 143 && answer < 144);
        const double forty = strip->position(40), year = strip->position(365.25), right = strip->position(answer);
        QVERIFY(0 < forty && forty < right && right < year && year < 1);
        // Log scale: distances are ratios. 143.9 / 40 = 3.6×, 365.25 / 143.9 = 2.5×.
        QVERIFY(std::abs((year - right) / (right - forty) - std::log(365.25 / answer) / std::log(answer / 40)) <
                 1e-9);
        QVERIFY(!strip->grab().isNull()); // paints
        // A guess that cannot be read refuses them all: nothing revealed.
        window.tour()->next();
        QVERIFY(strip->isHidden());
        window.tour()->submitGuess(QStringLiteral("40B; banana"));
        QVERIFY(window.tour()->isAnswerHidden());
        QVERIFY(strip->isHidden());
        window.tour()->stop();
    }

    // README's classroom section names the tour's keys as the tour reads them (one table, tour_keys):
    // every key of the table, and no reveal key the table lacks.
    void readmeNamesTheTourKeys() {
        QFile readme(QStringLiteral(NAPKIN_README));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        const qsizetype from = text.indexOf(QStringLiteral("## In the classroom"));
        QVERIFY(from >= 0);
        const QString classroom = text.mid(from, text.indexOf(QStringLiteral("\n## "), from + 1) - from);
        for (const TourKey& k : tourKeys())
            QVERIFY2(classroom.contains(QStringLiteral("**%1**").arg(tourKeyName(k.key))) ||
                         classroom.contains(QStringLiteral("**%1 /").arg(tourKeyName(k.key))) ||
                         classroom.contains(QStringLiteral("/ %1**").arg(tourKeyName(k.key))),
                     qPrintable(tourKeyName(k.key) + QStringLiteral(" is not in README's classroom section")));
        // Each bold key README names for the tour is one the tour reads.
        static const QRegularExpression bold(QStringLiteral("\\*\\*([^*]+)\\*\\*"));
        QStringList known;
        for (const TourKey& k : tourKeys())
            known << tourKeyName(k.key);
        for (auto it = bold.globalMatch(classroom); it.hasNext();) {
            const QString keys = it.next().captured(1);
            for (const QString& key : keys.split(QStringLiteral(" / "))) {
                static const QStringList keyNames{QStringLiteral("→"),     QStringLiteral("←"),
                                                  QStringLiteral("↑"),     QStringLiteral("↓"),
                                                  QStringLiteral("PgDn"),  QStringLiteral("PgUp"),
                                                  QStringLiteral("Space"), QStringLiteral("Enter"),
                                                  QStringLiteral("Return"), QStringLiteral("Esc"),
                                                  QStringLiteral("Tab"),   QStringLiteral("Home"),
                                                  QStringLiteral("End")};
                if (!keyNames.contains(key))
                    continue; // F5, Shift+F5 (the window's) and phrases in bold
                QVERIFY2(known.contains(key), qPrintable(key + QStringLiteral(": README names a key the tour "
                                                                               "does not read")));
            }
        }
        // The caption's hint is the table's too.
        QCOMPARE(tourKeyHint(), QStringLiteral("→ next · ← back · Space reveal · Esc leave"));
    }
};

QTEST_MAIN(TestTourSetup)
#include "tst_tour_setup.moc"
