// SPDX-License-Identifier: GPL-3.0-or-later
// Every page at the sizes a classroom projects (1024×768, 1280×720, 1600×900, 1920×1080), in the dark
// palette, and in presentation mode at 1024×768, 1280×720 (light and dark) and 1600×900: no two visible
// text widgets overlap, no text widget is cut by its own box or by a parent (a scroll area's viewport may
// hide it: that panel scrolls), no chart's legend covers plotted data, no chart label lands on another or
// has a line across the plot (a capacity) run through it or falls under WCAG AA's 4.5:1 on the plot's
// background, no two tick labels of an axis overlap, no axis title is cut. Each page at each size is
// written as a PNG under the build directory, so a reviewer sees what the test judged; with
// NAPKIN_LAYOUT_CHARTS set, each chart whole as well (a chart the page scrolls past is judged all the same).
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/accounting/reserved_line.h"
#include "app/classroom/lecture_tour_controller.h"
#include "app/inference/inference_controls.h"
#include "app/inference/inference_page.h"
#include "app/model/advanced_architecture_controls.h"
#include "app/model/architecture_controls.h"
#include "app/shell/main_window.h"
#include "tests/support/wcag_contrast.h"
#include "widgets/charts/chart_view.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStyleOptionComboBox>
#include <QTabWidget>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>

namespace {

bool isTextWidget(const QWidget* w) {
    if (const auto* label = qobject_cast<const QLabel*>(w))
        return !label->text().trimmed().isEmpty();
    if (const auto* button = qobject_cast<const QAbstractButton*>(w))
        return !button->text().isEmpty();
    return qobject_cast<const QComboBox*>(w) != nullptr;
}

QString describe(const QWidget* w) {
    QString text;
    if (const auto* label = qobject_cast<const QLabel*>(w))
        text = label->text();
    else if (const auto* button = qobject_cast<const QAbstractButton*>(w))
        text = button->text();
    else if (const auto* combo = qobject_cast<const QComboBox*>(w))
        text = combo->currentText();
    text.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    if (text.size() > 40)
        text = text.left(37) + QStringLiteral("...");
    return QStringLiteral("%1 \"%2\"").arg(QString::fromLatin1(w->metaObject()->className()), text);
}

QRect inWindow(const QWidget* w, const QWidget* window) {
    return QRect(w->mapTo(window, QPoint(0, 0)), w->size());
}

bool isScrollViewport(const QWidget* w) {
    const auto* area = qobject_cast<const QAbstractScrollArea*>(w->parentWidget());
    return area && area->viewport() == w;
}

// The width the widget's text needs against the width its style gives the text; 0 needed when it fits.
std::pair<int, int> textWidth(const QWidget* w) {
    const QFontMetrics fm = w->fontMetrics();
    if (const auto* combo = qobject_cast<const QComboBox*>(w)) {
        QStyleOptionComboBox opt;
        opt.initFrom(combo);
        opt.rect = combo->rect();
        const QRect field =
            combo->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, combo);
        const int icon = combo->itemIcon(combo->currentIndex()).isNull() ? 0 : combo->iconSize().width() + 4;
        return {fm.horizontalAdvance(combo->currentText()) + icon, field.width()};
    }
    if (const auto* button = qobject_cast<const QAbstractButton*>(w)) {
        QString text = button->text();
        text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
        // Check boxes and radio buttons draw an indicator and a gap beside the text.
        int extra = 0;
        if (qobject_cast<const QCheckBox*>(w) || qobject_cast<const QRadioButton*>(w))
            extra = w->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, w) +
                    w->style()->pixelMetric(QStyle::PM_CheckBoxLabelSpacing, nullptr, w);
        else
            extra = 2 * w->style()->pixelMetric(QStyle::PM_ButtonMargin, nullptr, w) / 2;
        if (!button->icon().isNull())
            extra += button->iconSize().width() + 4;
        int needed = 0;
        for (const QString& line : text.split(QLatin1Char('\n')))
            needed = std::max(needed, fm.horizontalAdvance(line));
        return {needed + extra, w->width()};
    }
    return {0, 0};
}

// Cut by its own box: a label narrower or lower than its text, a button or combo box narrower than its text.
bool cutByOwnBox(const QWidget* w) {
    if (const auto* label = qobject_cast<const QLabel*>(w)) {
        if (label->wordWrap()) {
            const int h = label->heightForWidth(label->width());
            return h > label->height() + 1;
        }
        const QSize need = label->minimumSizeHint();
        return need.width() > label->width() + 1 || need.height() > label->height() + 1;
    }
    const auto [needed, available] = textWidth(w);
    return needed > available + 1;
}

struct Problems {
    QStringList lines;
    void add(const QString& s) {
        if (!lines.contains(s))
            lines << s;
    }
};

void checkWidgets(QWidget* window, QWidget* page, Problems& out) {
    struct Placed {
        QWidget* widget;
        QRect shown; // the part a viewer sees, in window coordinates
    };
    std::vector<Placed> placed;
    const QRect windowRect = window->rect();
    // A panel may scroll down; one that scrolls sideways hides the ends of its lines (formulas that ran off).
    for (QScrollArea* area : page->findChildren<QScrollArea*>())
        if (area->isVisible() && area->horizontalScrollBar()->isVisible())
            out.add(QStringLiteral("a %1 panel scrolls sideways (%2 px wide content in %3 px)")
                        .arg(area->widget() ? QString::fromLatin1(area->widget()->metaObject()->className())
                                            : QStringLiteral("scroll"))
                        .arg(area->widget() ? area->widget()->minimumSizeHint().width() : 0)
                        .arg(area->viewport()->width()));
    for (QWidget* w : page->findChildren<QWidget*>()) {
        if (!w->isVisible() || !isTextWidget(w))
            continue;
        QRect shown = inWindow(w, window);
        bool scrolledAway = false;
        for (QWidget* a = w->parentWidget(); a && a != window; a = a->parentWidget()) {
            const QRect ar = inWindow(a, window);
            if (!isScrollViewport(a) && !ar.contains(shown) && !shown.isEmpty())
                out.add(
                    QStringLiteral("%1 cut by its parent %2").arg(describe(w), a->metaObject()->className()));
            shown &= ar;
            scrolledAway = scrolledAway || (isScrollViewport(a) && shown.isEmpty());
        }
        if (scrolledAway || shown.isEmpty())
            continue; // scrolled out of its panel's view
        if (!windowRect.contains(shown))
            out.add(QStringLiteral("%1 cut by the window").arg(describe(w)));
        if (cutByOwnBox(w))
            out.add(QStringLiteral("%1 cut: its text does not fit its %2×%3 box")
                        .arg(describe(w))
                        .arg(w->width())
                        .arg(w->height()));
        placed.push_back({w, shown});
    }
    for (std::size_t i = 0; i < placed.size(); ++i)
        for (std::size_t j = i + 1; j < placed.size(); ++j) {
            QWidget* a = placed[i].widget;
            QWidget* b = placed[j].widget;
            if (a->isAncestorOf(b) || b->isAncestorOf(a))
                continue;
            // Touching edges is not overlapping.
            if (placed[i].shown.adjusted(1, 1, -1, -1).intersects(placed[j].shown.adjusted(1, 1, -1, -1)))
                out.add(QStringLiteral("%1 overlaps %2").arg(describe(a), describe(b)));
        }
}

void checkCharts(QWidget* page, Problems& out) {
    for (ChartView* chart : page->findChildren<ChartView*>()) {
        if (!chart->isVisible())
            continue;
        chart->replotNow();
        const ChartLayout g = chart->layoutGeometry();
        const QString name = QString::fromLatin1(chart->metaObject()->className());
        for (const QString& cut : g.cutText)
            out.add(QStringLiteral("%1: \"%2\" is cut").arg(name, cut));
        for (const QString& pair : g.crowdedTicks)
            out.add(QStringLiteral("%1: tick labels %2 overlap").arg(name, pair));
        if (!g.legend.isEmpty())
            for (const QRect& d : g.data)
                if (g.legend.intersects(d)) {
                    out.add(QStringLiteral("%1: the legend covers plotted data").arg(name));
                    break;
                }
        const QColor background = chart->palette().color(QPalette::Base);
        for (std::size_t i = 0; i < g.labels.size(); ++i) {
            const QRect& label = g.labels[i];
            if (!g.legend.isEmpty() && g.legend.intersects(label))
                out.add(QStringLiteral("%1: the legend covers a label").arg(name));
            for (std::size_t j = i + 1; j < g.labels.size(); ++j)
                if (label.adjusted(1, 1, -1, -1).intersects(g.labels[j].adjusted(1, 1, -1, -1)))
                    out.add(QStringLiteral("%1: two labels overlap").arg(name));
            // A capacity line through a verdict ("does not fit" struck through at batch 64).
            for (const QLine& rule : g.rules)
                if (rule.y1() == rule.y2() && label.top() + 1 < rule.y1() && rule.y1() < label.bottom() - 1 &&
                    std::max(rule.x1(), rule.x2()) > label.left() &&
                    std::min(rule.x1(), rule.x2()) < label.right())
                    out.add(QStringLiteral("%1: a line runs through a label").arg(name));
            // WCAG AA for text on the plot's background (dark green on a dark palette was about 4:1).
            if (i < g.labelColors.size() && contrast(g.labelColors[i], background) < 4.5)
                out.add(QStringLiteral("%1: a label's %2 on %3 is under 4.5:1")
                            .arg(name, g.labelColors[i].name(), background.name()));
        }
    }
}

// Why a window refuses a size: the chain of widgets, from `root` down, whose minimum height (or width)
// is largest.
QString largestMinimum(const QWidget* root, Qt::Orientation o) {
    const auto extent = [o](const QWidget* w) {
        const QSize m = w->minimumSizeHint().expandedTo(w->minimumSize());
        return o == Qt::Vertical ? m.height() : m.width();
    };
    QStringList chain;
    for (const QWidget* w = root; w;) {
        chain << QStringLiteral("%1 %2 (min %3)")
                     .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                     .arg(extent(w));
        const QWidget* next = nullptr;
        for (const QWidget* child : w->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
            if (!child->isWindow() && (!next || extent(child) > extent(next)))
                next = child;
        if (const auto* area = qobject_cast<const QScrollArea*>(w); area && area->widget())
            next = area->widget(); // the panel's content, not its scroll bars
        w = next;
    }
    return chain.join(QStringLiteral(" > "));
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyPageEverySize_data();
    void everyPageEverySize();
    void firstWindowFitsTheScreen();
    void cleanupTestCase();

private:
    std::unique_ptr<MainWindow> m_window;
    bool m_dark = false;
};

void TestLayout::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // no saved geometry or settings from a real session
    QSettings().clear();                      // nor from this suite's last run (the dark palette)
    m_window = std::make_unique<MainWindow>();
    // Presentation mode starts the tour; its answers shown (not blurred while the room guesses), so the
    // pictures show the charts this suite judges. tst_lecture_tour checks the hidden state's banner fits.
    m_window->tour()->setHidingEnabled(false);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QDir().mkpath(QStringLiteral(NAPKIN_LAYOUT_SCREENSHOTS));
}

// A window opened for the first time (no saved geometry) fits the screen: it was 1200×800 on a 1024×768
// projector, its charts and formulas past the screen's edges. The offscreen screen is 800×600.
void TestLayout::firstWindowFitsTheScreen() {
    const MainWindow w;
    QVERIFY(w.screen());
    const QSize available = w.screen()->availableGeometry().size();
    QVERIFY2(w.width() <= available.width() && w.height() <= available.height(),
             qPrintable(QStringLiteral("%1×%2 on a %3×%4 screen")
                            .arg(w.width())
                            .arg(w.height())
                            .arg(available.width())
                            .arg(available.height())));
}

void TestLayout::everyPageEverySize_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presentation");
    QTest::addColumn<bool>("dark");
    QTest::addColumn<int>("page");
    QTest::addColumn<QString>("preset"); // empty: the page as it opens
    QTest::addColumn<bool>("advanced");  // the Architecture group's advanced section open
    const QSize sizes[] = {{1024, 768}, {1280, 720}, {1600, 900}, {1920, 1080}};
    MainWindow probe; // the tabs' names, for readable rows
    for (int p = 0; p < probe.pages()->count(); ++p) {
        const QByteArray name = probe.pages()->tabText(p).toLower().replace(' ', '-').toLatin1();
        for (const QSize& s : sizes)
            QTest::addRow("%s-%dx%d", name.constData(), s.width(), s.height())
                << s << false << false << p << QString() << false;
        // The dark palette (Fusion) at the smallest projector, and presentation mode's larger text at the
        // projectors' sizes (its panels scroll down and its chart rows stack where they must).
        QTest::addRow("%s-dark-1024x768", name.constData())
            << QSize(1024, 768) << false << true << p << QString() << false;
        for (const QSize& s : {QSize(1024, 768), QSize(1280, 720), QSize(1600, 900)})
            QTest::addRow("%s-presentation-%dx%d", name.constData(), s.width(), s.height())
                << s << true << false << p << QString() << false;
        // Presentation mode on a dark projector (the tour is taught that way too).
        QTest::addRow("%s-presentation-dark-1280x720", name.constData())
            << QSize(1280, 720) << true << true << p << QString() << false;
    }
    // README's first picture (scripts/screenshots.sh copies it to docs/screenshots/accounting-gpt3.png).
    QTest::addRow("accounting-gpt3-175b-1600x900")
        << QSize(1600, 900) << false << false << 0 << QStringLiteral("gpt3-175b") << false;
    // The lecture tour's Cruncher: a 496-byte bar whose capacity is off the scale.
    QTest::addRow("accounting-cruncher-presentation-1600x900")
        << QSize(1600, 900) << true << false << 0 << QStringLiteral("cruncher") << false;
    // DeepSeek-V3's config with every advanced knob shown: the panel scrolls down, never sideways.
    QTest::addRow("accounting-deepseek-v3-advanced-1024x768")
        << QSize(1024, 768) << false << false << 0 << QStringLiteral("deepseek-v3") << true;
    QTest::addRow("accounting-deepseek-v3-advanced-presentation-1600x900")
        << QSize(1600, 900) << true << false << 0 << QStringLiteral("deepseek-v3") << true;
    // Served, with the Architecture group and its advanced section open.
    QTest::addRow("inference-deepseek-v3-advanced-1024x768")
        << QSize(1024, 768) << false << false << 1 << QStringLiteral("deepseek-v3") << true;
    QTest::addRow("inference-deepseek-v3-advanced-dark-1024x768")
        << QSize(1024, 768) << false << true << 1 << QStringLiteral("deepseek-v3") << true;
}

void TestLayout::everyPageEverySize() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    QFETCH(bool, dark);
    QFETCH(int, page);
    QFETCH(QString, preset);
    QFETCH(bool, advanced);
    MainWindow& w = *m_window;
    if (m_dark != dark) {
        w.setDarkPalette(dark);
        m_dark = dark;
    }
    if (w.isPresentationMode() != presentation)
        w.setPresentationMode(presentation);
    // Presentation mode fills the screen; the offscreen screen is 800×800, so the projector's size is
    // given to the window in its normal state: the large type and thick lines stay.
    QCoreApplication::processEvents(); // the full-screen request and the new minimum sizes land first
    QCoreApplication::processEvents();
    w.setWindowState(Qt::WindowNoState);
    w.showNormal();
    // The row's setting after presentation mode: entering it starts the lecture tour, whose first step
    // sets the accounting page to its own question (the Cruncher row showed the 70B one).
    if (!preset.isEmpty() && page == 0)
        w.accountingPage()->applyPreset(*findPreset(preset));
    w.accountingPage()->controls()->architecture()->advanced()->setExpanded(advanced && page == 0);
    InferenceControls* inference = w.inferencePage()->controls();
    if (page == 1) {
        inference->presetBox()->setCurrentIndex(
            preset.isEmpty() ? inference->presetBox()->findData(QStringLiteral("llama3-8b"))
                             : inference->presetBox()->findData(preset));
        inference->setArchitectureShown(advanced);
        inference->architecture()->advanced()->setExpanded(advanced);
    }
    w.pages()->setCurrentIndex(page);
    // The timeline's reserved line arrives 100 ms after the controls rest, with its legend entry: drawn now,
    // so that the layout is checked as a user sees it at rest, not whichever way the timer fell.
    w.accountingPage()->reservedLine()->flush();
    // Twice: a minimum left from the previous row (presentation mode's type) settles after one turn.
    for (int i = 0; i < 2; ++i) {
        w.resize(size);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
    }
    // A window that refuses the size has a minimum too large for a projector: say which widget sets it.
    QVERIFY2(w.size() == size,
             qPrintable(QStringLiteral("%1×%2 instead; %3")
                            .arg(w.width())
                            .arg(w.height())
                            .arg(w.width() > size.width() ? largestMinimum(w.pages(), Qt::Horizontal)
                                                          : largestMinimum(w.pages(), Qt::Vertical))));
    QWidget* current = w.pages()->currentWidget();
    // Queued replots, legends that dropped columns and the layouts their new minimum sizes ask for settle
    // on screen a moment later; a loaded machine (ctest -j) ran fewer of them before the check.
    for (int pass = 0; pass < 4; ++pass) {
        for (ChartView* c : current->findChildren<ChartView*>())
            if (c->isVisible())
                c->replotNow();
        QCoreApplication::processEvents();
    }
    Problems problems;
    checkCharts(current, problems);
    checkWidgets(&w, current, problems);
    const QString file =
        QStringLiteral("%1/%2.png")
            .arg(QStringLiteral(NAPKIN_LAYOUT_SCREENSHOTS), QString::fromLatin1(QTest::currentDataTag()));
    QVERIFY(w.grab().save(file));
    if (qEnvironmentVariableIsSet("NAPKIN_LAYOUT_CHARTS"))
        for (ChartView* c : current->findChildren<ChartView*>())
            if (c->isVisible())
                c->grab().save(file + QLatin1Char('.') + QString::fromLatin1(c->metaObject()->className()) +
                               QStringLiteral(".png"));
    QVERIFY2(problems.lines.isEmpty(),
             qPrintable(QLatin1Char('\n') + problems.lines.join(QLatin1Char('\n'))));
}

void TestLayout::cleanupTestCase() {
    if (m_window && m_window->isPresentationMode())
        m_window->setPresentationMode(false);
    if (m_window && m_dark)
        m_window->setDarkPalette(false);
    m_window.reset();
}

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
