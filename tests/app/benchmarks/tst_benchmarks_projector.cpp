// The Benchmarks page in the main window at a classroom's sizes, as a projector shows it. Ticking fp16
// shows a warning in the controls column: its lines fit its box, no parent cuts it and nothing lies on it
// (it was drawn with two of its six lines cut). The page's notes (the refused types, the fp16 warning, the
// refused recipes) answer "why is this type greyed out?": in presentation mode they grow with its type and
// read at WCAG AA's 4.5:1 on its paper, light and dark (a style sheet pinned their font, so presentation's
// type passed them by; grey was 3.9:1 on white, the amber 4.45:1 on black). With NAPKIN_SCREENSHOT_DIR
// set, each window judged for the fp16 warning is written there as a PNG.
#include "app/benchmarks/benchmarks_page.h"
#include "app/benchmarks/matmul_sweep_panel.h"
#include "app/shell/main_window.h"
#include "tests/support/wcag_contrast.h"

#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QScopeGuard>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

#include <memory>

namespace {

QRect inWindow(const QWidget* w, const QWidget* window) {
    return {w->mapTo(window, QPoint(0, 0)), w->size()};
}

bool isScrollViewport(const QWidget* w) {
    const auto* area = qobject_cast<const QAbstractScrollArea*>(w->parentWidget());
    return area && area->viewport() == w;
}

QString named(const QWidget* w) {
    QString text;
    if (const auto* label = qobject_cast<const QLabel*>(w))
        text = label->text().left(40);
    else if (const auto* button = qobject_cast<const QAbstractButton*>(w))
        text = button->text();
    return QStringLiteral("%1 %2 \"%3\"")
        .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), text);
}

QLabel* labelStartingWith(const QWidget& root, const QString& start) {
    for (QLabel* label : root.findChildren<QLabel*>())
        if (label->text().startsWith(start))
            return label;
    return nullptr;
}

QCheckBox* typeBox(const QWidget& root, const QString& name) {
    for (QCheckBox* box : root.findChildren<QCheckBox*>())
        if (box->text() == name)
            return box;
    return nullptr;
}

// Everything wrong with how `label` is shown in `window`: its lines past its box, a parent (not a
// panel's viewport, which scrolls) that cuts it, and any other visible widget lying on it.
QStringList problemsOf(QLabel* label, QWidget* window, QWidget* page) {
    QStringList problems;
    const int needed = label->heightForWidth(label->width());
    if (needed > label->height())
        problems << QStringLiteral("its lines need %1 px at %2 px wide; its box is %3 px high")
                        .arg(needed)
                        .arg(label->width())
                        .arg(label->height());
    const QRect box = inWindow(label, window);
    for (QWidget* a = label->parentWidget(); a && a != window; a = a->parentWidget())
        if (!isScrollViewport(a) && !inWindow(a, window).contains(box))
            problems << QStringLiteral("cut by its parent %1 (%2 px high, the label's bottom %3 px below its "
                                       "top)")
                            .arg(named(a))
                            .arg(a->height())
                            .arg(label->mapTo(a, QPoint(0, label->height())).y());
    for (QWidget* other : page->findChildren<QWidget*>()) {
        if (other == label || !other->isVisible() || other->isAncestorOf(label) || label->isAncestorOf(other))
            continue;
        if (inWindow(other, window).adjusted(1, 1, -1, -1).intersects(box.adjusted(1, 1, -1, -1)))
            problems << QStringLiteral("%1 lies on it").arg(named(other));
    }
    return problems;
}

} // namespace

class TestBenchmarksProjector : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void fp16WarningIsWhole_data();
    void fp16WarningIsWhole();
    void precisionNoteIsWhole_data();
    void precisionNoteIsWhole();
    void notesReadOnAProjector_data();
    void notesReadOnAProjector();
    void cleanupTestCase();

private:
    /// The window at `size`, in or out of presentation mode (and dark or not), the Benchmarks page in
    /// front with fp16 ticked, its layouts settled; fails when the window refuses the size.
    void show(QSize size, bool presentation, bool dark);
    /// Fails unless `label`, scrolled into view, is whole in the window: its lines within its box, no
    /// parent cutting it, nothing on it, ink on its last line. Writes the window as `shotName`-TAG.png
    /// under NAPKIN_SCREENSHOT_DIR when set.
    void expectWhole(QLabel* label, const QString& shotName);

    std::unique_ptr<MainWindow> m_window;
    bool m_dark = false;
};

void TestBenchmarksProjector::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    m_window = std::make_unique<MainWindow>();
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestBenchmarksProjector::cleanupTestCase() {
    if (m_window && m_window->isPresentationMode())
        m_window->setPresentationMode(false);
    if (m_window && m_dark)
        m_window->setDarkPalette(false);
    m_window.reset();
}

void TestBenchmarksProjector::show(QSize size, bool presentation, bool dark) {
    MainWindow& w = *m_window;
    if (m_dark != dark) {
        w.setDarkPalette(dark);
        m_dark = dark;
    }
    if (w.isPresentationMode() != presentation)
        w.setPresentationMode(presentation);
    QCoreApplication::processEvents();
    // The offscreen screen is smaller than a projector: the size is given to the window in its normal
    // state, presentation mode's type and palette kept (as tst_layout does).
    w.setWindowState(Qt::WindowNoState);
    w.showNormal();
    w.pages()->setCurrentWidget(w.benchmarksPage());
    QCheckBox* fp16 = typeBox(*w.benchmarksPage(), QStringLiteral("fp16"));
    QVERIFY(fp16);
    fp16->setChecked(true);
    for (int i = 0; i < 3; ++i) {
        w.resize(size);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
    }
    QCOMPARE(w.size(), size);
}

void TestBenchmarksProjector::expectWhole(QLabel* label, const QString& shotName) {
    BenchmarksPage* page = m_window->benchmarksPage();
    // The page's panels scroll: the label is brought into their view, as a reader scrolls to it.
    for (QWidget* a = label->parentWidget(); a; a = a->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(a))
            area->ensureWidgetVisible(label);
    QCoreApplication::processEvents();
    if (const QByteArray dir = qgetenv("NAPKIN_SCREENSHOT_DIR"); !dir.isEmpty())
        m_window->grab().save(
            QStringLiteral("%1/%2-%3.png")
                .arg(QString::fromLocal8Bit(dir), shotName, QString::fromLatin1(QTest::currentDataTag())));
    const QStringList problems = problemsOf(label, m_window.get(), page);
    QVERIFY2(problems.isEmpty(), qPrintable(QLatin1Char('\n') + problems.join(QLatin1Char('\n'))));
    // What the picture shows: ink on its last line (not a box whose lines were clipped away).
    const QImage drawn = label->grab().toImage();
    const QColor paper = label->palette().color(label->backgroundRole());
    const int line = label->fontMetrics().lineSpacing();
    const int textBottom = label->contentsRect().top() + label->heightForWidth(label->width());
    const QRect lastLine(0, std::max(0, textBottom - line), drawn.width(), line);
    QVERIFY2(strongestEdge(drawn, lastLine, paper) >= 3,
             qPrintable(QStringLiteral("nothing drawn in its last line (y %1 to %2 of %3)")
                            .arg(lastLine.top())
                            .arg(lastLine.bottom())
                            .arg(drawn.height())));
}

void TestBenchmarksProjector::fp16WarningIsWhole_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presentation");
    for (const bool presentation : {false, true})
        for (const QSize& s : {QSize(1024, 768), QSize(1280, 720)})
            QTest::addRow("%dx%d%s", s.width(), s.height(), presentation ? "-presentation" : "")
                << s << presentation;
}

void TestBenchmarksProjector::fp16WarningIsWhole() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    show(size, presentation, false);
    if (QTest::currentTestFailed())
        return;
    BenchmarksPage* page = m_window->benchmarksPage();
    QLabel* warning = labelStartingWith(*page->sweepPanel(), QStringLiteral("fp16 on the CPU"));
    QVERIFY(warning);
    QVERIFY(warning->isVisible());
    expectWhole(warning, QStringLiteral("benchmarks-fp16"));
}

void TestBenchmarksProjector::precisionNoteIsWhole_data() {
    fp16WarningIsWhole_data();
}

// The training controls' note on the recipes the trainer refuses: the eigen CPU backend trains fp32 only,
// so choosing it shows why mixed-bf16 is greyed out, on several lines in the 340-pixel column. In a form
// layout's spanning row it got the height of its lines at the label's natural width, and was cut.
void TestBenchmarksProjector::precisionNoteIsWhole() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    BenchmarksPage* page = m_window->benchmarksPage();
    auto* backend = page->findChild<QComboBox*>(QStringLiteral("cpuBackend"));
    QVERIFY(backend);
    const int eigen = backend->findData(QStringLiteral("eigen"));
    if (eigen < 0 || !(backend->model()->flags(backend->model()->index(eigen, 0)) & Qt::ItemIsEnabled))
        QSKIP("this build has no eigen CPU backend to refuse mixed-bf16");
    const int before = backend->currentIndex();
    const auto restore = qScopeGuard([&] { backend->setCurrentIndex(before); });
    show(size, presentation, false);
    if (QTest::currentTestFailed())
        return;
    backend->setCurrentIndex(eigen);
    // The note's lines reach the scroll area a layout level per turn of the event loop.
    for (int i = 0; i < 10; ++i)
        QCoreApplication::processEvents();
    auto* note = page->findChild<QLabel*>(QStringLiteral("precisionNote"));
    QVERIFY(note);
    QVERIFY2(note->isVisible() && note->text().contains(QStringLiteral("mixed-bf16")),
             qPrintable(note->text()));
    expectWhole(note, QStringLiteral("benchmarks-precision"));
}

void TestBenchmarksProjector::notesReadOnAProjector_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light presentation") << false;
    QTest::newRow("dark presentation") << true;
}

void TestBenchmarksProjector::notesReadOnAProjector() {
    QFETCH(bool, dark);
    show(QSize(1280, 900), true, dark); // the type and colours are judged; the size is the layout's test
    if (QTest::currentTestFailed())
        return;
    BenchmarksPage* page = m_window->benchmarksPage();
    // On a CPU without a GPU, tf32 and fp8 are refused (the note under the types); fp16 is ticked (its
    // warning). The refused recipes' note shows only where a recipe is refused (not on every CPU).
    QList<QLabel*> notes{page->findChild<QLabel*>(QStringLiteral("unsupportedDtypes")),
                         labelStartingWith(*page, QStringLiteral("fp16 on the CPU")),
                         page->findChild<QLabel*>(QStringLiteral("precisionNote"))};
    QVERIFY(notes[0] && notes[0]->isVisible());
    QVERIFY(notes[1] && notes[1]->isVisible());
    QVERIFY(notes[2]);
    // The presentation type: a label beside the notes that sets no font of its own ("Types").
    const QLabel* body = labelStartingWith(*page->sweepPanel(), QStringLiteral("Types"));
    QVERIFY(body);
    const int bodyPixels = QFontInfo(body->font()).pixelSize();
    QVERIFY2(bodyPixels > QFontInfo(QApplication::font()).pixelSize(), "presentation mode's type is not on");
    for (QLabel* note : notes) {
        if (!note->isVisible() && note->text().isEmpty())
            continue;
        const int pixels = QFontInfo(note->font()).pixelSize();
        QVERIFY2(pixels >= bodyPixels, qPrintable(QStringLiteral("%1: %2 px text beside %3 px body text")
                                                      .arg(named(note))
                                                      .arg(pixels)
                                                      .arg(bodyPixels)));
        if (!note->isVisible())
            continue;
        const QImage drawn = note->grab().toImage();
        const QColor paper = note->palette().color(note->backgroundRole());
        const double ink = strongestEdge(drawn, drawn.rect(), paper);
        QVERIFY2(
            ink >= 4.5,
            qPrintable(
                QStringLiteral("%1: %2:1 on %3").arg(named(note)).arg(ink, 0, 'f', 2).arg(paper.name())));
    }
}

QTEST_MAIN(TestBenchmarksProjector)
#include "tst_benchmarks_projector.moc"
