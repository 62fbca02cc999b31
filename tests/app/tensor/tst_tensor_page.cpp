// SPDX-License-Identifier: GPL-3.0-or-later
// The tensor page driven through its real controls: fields, example buttons, step list, hover.
// With NAPKIN_SCREENSHOT_DIR set, it also writes the page as PNGs there (for eyes, not asserts).
#include "app/tensor/tensor_page.h"
#include "widgets/controls/stride_view.h"

#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QtTest>

class TestTensorPage : public QObject {
    Q_OBJECT
private slots:
    void defaultShowsTheContiguousFix();
    void failingExampleShowsPyTorchsMessage();
    void typingReevaluates();
    void typedShapeAppliesOnEnterOnly();
    void blankShapeIsRefusedNextToTheField();
    void shapeMessageMovesNothing();
    void chainMessageMovesNothing_data();
    void chainMessageMovesNothing();
    void hoverShowsOffsetArithmetic();
    void screenshots();
    void stepListNeverScrollsSideways_data();
    void stepListNeverScrollsSideways();
    void strideViewLabelsAreWhole_data();
    void strideViewLabelsAreWhole();

private:
    /// `page` shown at `size` in its type × `typeScale` (1.45: presentation mode's).
    static bool showAt(TensorPage& page, QSize size, double typeScale) {
        QFont type = page.font();
        type.setPointSizeF(type.pointSizeF() * typeScale);
        page.setFont(type);
        page.resize(size);
        page.show();
        return QTest::qWaitForWindowExposed(&page);
    }
    static QPushButton* button(TensorPage& page, const QString& text) {
        for (auto* b : page.findChildren<QPushButton*>())
            if (b->text() == text)
                return b;
        return nullptr;
    }
};

void TestTensorPage::defaultShowsTheContiguousFix() {
    TensorPage page;
    const auto& e = page.evaluation();
    QVERIFY(!e.error);
    QCOMPARE(e.steps.size(), std::size_t{4});
    QCOMPARE(e.steps[2].bytesCopied, 24LL);
    // the last step shows both storages: x's and the copy
    QCOMPARE(page.strideView()->geometry().strips.size(), std::size_t{2});
    // stepping back to the transpose shows x's storage only
    page.findChild<QListWidget*>()->setCurrentRow(1);
    QCOMPARE(page.strideView()->geometry().strips.size(), std::size_t{1});
}

void TestTensorPage::failingExampleShowsPyTorchsMessage() {
    TensorPage page;
    QPushButton* failing = button(page, QStringLiteral("Transpose → view fails"));
    QVERIFY(failing);
    failing->click();
    QVERIFY(page.evaluation().error);
    QCOMPARE(page.evaluation().error->step, 2);
    QVERIFY(page.errorText().contains(QStringLiteral("view size is not compatible")));
    button(page, QStringLiteral(".contiguous() fix"))->click();
    QVERIFY(!page.evaluation().error);
    QVERIFY(page.errorText().isEmpty());
}

void TestTensorPage::typingReevaluates() {
    TensorPage page;
    auto edits = page.findChildren<QLineEdit*>();
    QLineEdit* shape = edits.at(0);
    QLineEdit* expression = edits.at(1);
    shape->setText(QStringLiteral("3,1"));
    expression->setText(QStringLiteral("x.expand(3,4)"));
    QCOMPARE(page.evaluation().steps.back().layout.stride, (std::vector<int64_t>{1, 0}));
    shape->setText(QStringLiteral("3,x"));
    QVERIFY(page.errorText().startsWith(QStringLiteral("Shape:")));
}

// Typing applies on Enter, never keystroke by keystroke: on the way to the refused "2,-3", "2," must not
// become x's shape; the field says at once that the text does not read, and the last good chain stays.
void TestTensorPage::typedShapeAppliesOnEnterOnly() {
    TensorPage page;
    page.show();
    QLineEdit* shape = page.findChildren<QLineEdit*>().at(0);
    shape->setFocus();
    shape->selectAll();
    QTest::keyClicks(shape, QStringLiteral("2,"));
    QCOMPARE(page.evaluation().steps.front().layout.shape, (std::vector<int64_t>{2, 3}));
    QTest::keyClicks(shape, QStringLiteral("-3"));
    QVERIFY(page.shapeErrorText().startsWith(QStringLiteral("Shape:")));
    QTest::keyClick(shape, Qt::Key_Return);
    QCOMPARE(page.evaluation().steps.front().layout.shape, (std::vector<int64_t>{2, 3}));
    QVERIFY(page.shapeErrorText().startsWith(QStringLiteral("Shape:")));
    shape->selectAll();
    QTest::keyClicks(shape, QStringLiteral("4,5"));
    QVERIFY(page.shapeErrorText().isEmpty());
    QCOMPARE(page.evaluation().steps.front().layout.shape, (std::vector<int64_t>{2, 3}));
    QTest::keyClick(shape, Qt::Key_Return);
    QCOMPARE(page.evaluation().steps.front().layout.shape, (std::vector<int64_t>{4, 5}));
}

void TestTensorPage::blankShapeIsRefusedNextToTheField() {
    TensorPage page;
    QLineEdit* shape = page.findChildren<QLineEdit*>().at(0);
    QLineEdit* expression = page.findChildren<QLineEdit*>().at(1);
    expression->setText(QStringLiteral("x.t()"));
    QCOMPARE(page.evaluation().steps.back().layout.shape, (std::vector<int64_t>{3, 2}));
    // blank: refused with a message by the field; the last good chain stays on screen
    shape->setText(QStringLiteral("  "));
    QCOMPARE(page.shapeErrorText(), QStringLiteral("Shape: the shape is blank; write () for a 0-d tensor"));
    QCOMPARE(page.errorText(), page.shapeErrorText());
    QCOMPARE(page.evaluation().steps.back().layout.shape, (std::vector<int64_t>{3, 2}));
    // () is the 0-d tensor: x.t() of a scalar is the scalar
    shape->setText(QStringLiteral("()"));
    QVERIFY(page.shapeErrorText().isEmpty());
    QVERIFY(page.errorText().isEmpty());
    QVERIFY(!page.evaluation().error);
    QVERIFY(page.evaluation().steps.back().layout.shape.empty());
    QCOMPARE(page.evaluation().steps.back().layout.numel(), 1LL);
}

void TestTensorPage::hoverShowsOffsetArithmetic() {
    TensorPage page;
    page.resize(900, 700);
    page.setExample(QStringLiteral("4,4"), QStringLiteral("x"));
    QSignalSpy spy(page.strideView(), &StrideView::hoveredFormulaChanged);
    page.strideView()->setHoveredIndex({1, 2});
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("(1, 2) → 1·4 + 2·1 = 6"));
}

void TestTensorPage::screenshots() {
    const QString dir = qEnvironmentVariable("NAPKIN_SCREENSHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set NAPKIN_SCREENSHOT_DIR to write PNGs of the page");
    TensorPage page;
    page.resize(1100, 760);
    page.show();
    QCoreApplication::processEvents(); // let the scroll area settle the view's width
    QVERIFY(page.grab().save(dir + QStringLiteral("/tensor_page_contiguous_fix.png")));
    page.setExample(QStringLiteral("2,3"), QStringLiteral("x.transpose(1, 0).view(2, 3)"));
    QCoreApplication::processEvents();
    QVERIFY(page.grab().save(dir + QStringLiteral("/tensor_page_view_error.png")));
    page.setExample(QStringLiteral("2,4,6"), QStringLiteral("x.view(2, 4, 2, 3).transpose(1, 2)"));
    QCoreApplication::processEvents();
    page.strideView()->setHoveredIndex({0, 1, 2, 0});
    QVERIFY(page.grab().save(dir + QStringLiteral("/tensor_page_head_split.png")));
    page.setExample(QStringLiteral("3,1"), QStringLiteral("x.expand(3, 4)"));
    QCoreApplication::processEvents();
    page.strideView()->setHoveredIndex({2, 3});
    QVERIFY(page.grab().save(dir + QStringLiteral("/tensor_page_expand.png")));
    page.setExample(QStringLiteral("4,3,4"), QStringLiteral("x.expand(2,4,-1,4).transpose(3,-2).clone()"));
    QCoreApplication::processEvents();
    QVERIFY(page.grab().save(dir + QStringLiteral("/tensor_page_clone.png")));
    page.findChildren<QLineEdit*>().at(0)->setText(QString());
    QCoreApplication::processEvents();
    QVERIFY(page.grab().save(dir + QStringLiteral("/tensor_page_blank_shape.png")));
}

// Issue 35: in presentation type on a projector the step list scrolled sideways, its lines ("2  .view(2, 3)
// (3, 2) stride (1, 3) · copy, 24 B") wider than the list: a student saw half a step. Every line is whole in
// the list's width, at a projector's sizes, in the usual and in presentation type, for every example and
// a long chain.
void TestTensorPage::stepListNeverScrollsSideways_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<double>("typeScale");
    for (const QSize& s : {QSize(1024, 600), QSize(1280, 560)})
        for (const double scale : {1.0, 1.45})
            QTest::addRow("%dx%d%s", s.width(), s.height(), scale > 1 ? " presentation" : "") << s << scale;
}

void TestTensorPage::stepListNeverScrollsSideways() {
    QFETCH(QSize, size);
    QFETCH(double, typeScale);
    TensorPage page;
    QVERIFY(showAt(page, size, typeScale));
    auto* steps = page.findChild<QListWidget*>();
    QVERIFY(steps);
    QStringList chains;
    for (QPushButton* example : page.findChildren<QPushButton*>())
        if (example->text() != QLatin1String("Evaluate"))
            chains << example->text();
    int shown = 0;
    const auto check = [&](const QString& what) {
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        const QString dir = qEnvironmentVariable("NAPKIN_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            page.grab().save(QStringLiteral("%1/tensor-steps-%2-%3.png")
                                 .arg(dir, QString::fromLatin1(QTest::currentDataTag()))
                                 .arg(shown));
        ++shown;
        QVERIFY2(steps->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("%1: the step list scrolls sideways by %2 px")
                                .arg(what)
                                .arg(steps->horizontalScrollBar()->maximum())));
        const QFontMetrics metrics(steps->font());
        const int room = steps->viewport()->width();
        for (int i = 0; i < steps->count(); ++i)
            for (const QString& line : steps->item(i)->text().split(QLatin1Char('\n')))
                QVERIFY2(metrics.horizontalAdvance(line) + 8 <= room,
                         qPrintable(QStringLiteral("%1: \"%2\" is %3 px in a list %4 px wide")
                                        .arg(what, line)
                                        .arg(metrics.horizontalAdvance(line))
                                        .arg(room)));
    };
    for (QPushButton* example : page.findChildren<QPushButton*>()) {
        example->click();
        check(example->text());
    }
    page.setExample(QStringLiteral("4,3,4"), QStringLiteral("x.expand(2,4,-1,4).transpose(3,-2).clone()"));
    check(QStringLiteral("a long chain"));
    // A step longer than the list may grow: broken into lines, every character kept.
    const QString many = QStringLiteral(".view(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3)");
    page.setExample(QStringLiteral("2,3"), QStringLiteral("x") + many);
    check(QStringLiteral("a step wider than the list"));
    QCOMPARE(steps->count(), 2);
    QVERIFY2(steps->item(1)
                 ->text()
                 .remove(QLatin1Char(' '))
                 .remove(QLatin1Char('\n'))
                 .contains(QString(many).remove(QLatin1Char(' '))),
             qPrintable(steps->item(1)->text()));
    QVERIFY(steps->item(1)->text().count(QLatin1Char('\n')) > 2); // the operation and the stride broken
}

// Issue 35: in presentation type at 1024 wide, the copy's label ("storage #1 · 96 elements · 384 B — copy
// made at step 3: 384 B allocated and copied") was cut at the view's edge, the tensor's line too, and the
// slices' labels ("[0, 0, :, :]") were cut at 60 px. Each label has the lines and the width its text needs.
void TestTensorPage::strideViewLabelsAreWhole_data() {
    QTest::addColumn<double>("typeScale");
    QTest::newRow("usual type") << 1.0;
    QTest::newRow("presentation type") << 1.45;
}

void TestTensorPage::strideViewLabelsAreWhole() {
    QFETCH(double, typeScale);
    TensorPage page;
    QVERIFY(showAt(page, QSize(1024, 600), typeScale));
    const StrideView& view = *page.strideView();
    const struct {
        const char* shape;
        const char* expression;
    } chains[] = {{"4,3,4", "x.expand(2,4,-1,4).transpose(3,-2).clone()"},
                  {"2,4,6", "x.view(2, 4, 2, 3).transpose(1, 2)"},
                  {"2,3", "x.view(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3)"}};
    for (const auto& chain : chains) {
        page.setExample(QString::fromLatin1(chain.shape), QString::fromLatin1(chain.expression));
        QCoreApplication::processEvents();
        const StrideViewGeometry& g = view.geometry();
        const StrideViewText text = view.labels();
        QCOMPARE(text.stripLabels.size(), g.strips.size());
        QFont bold = view.font();
        bold.setBold(true);
        const QFontMetricsF metrics(bold);
        const auto whole = [&](const QString& label, const QRectF& rect) {
            const QRectF needed =
                metrics.boundingRect(QRectF(0, 0, rect.width(), 1e6), Qt::TextWordWrap, label);
            return needed.height() <= rect.height() && needed.width() <= rect.width() &&
                   rect.right() <= view.width();
        };
        for (std::size_t k = 0; k < g.strips.size(); ++k)
            QVERIFY2(whole(text.stripLabels[k], g.strips[k].labelRect),
                     qPrintable(QStringLiteral("%1: \"%2\" cut in %3 × %4 px")
                                    .arg(QLatin1String(chain.expression), text.stripLabels[k])
                                    .arg(g.strips[k].labelRect.width())
                                    .arg(g.strips[k].labelRect.height())));
        QVERIFY2(whole(text.gridLabel, g.gridLabelRect), qPrintable(text.gridLabel));
        for (const auto& slice : g.slices)
            QVERIFY2(
                metrics.horizontalAdvance(slice.label) <= slice.labelRect.width(),
                qPrintable(QStringLiteral("\"%1\" in %2 px").arg(slice.label).arg(slice.labelRect.width())));
    }
}

QTEST_MAIN(TestTensorPage)
// Issue 35: a refused shape's message took a row of its own when it appeared, and the Expression field
// and everything under it jumped down; its line is kept, shown or not.
void TestTensorPage::shapeMessageMovesNothing() {
    TensorPage page;
    page.resize(1000, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    const auto edits = page.findChildren<QLineEdit*>();
    QLineEdit* shape = edits.at(0);
    QLineEdit* expression = edits.at(1);
    const QRect before = expression->geometry();
    shape->setText(QStringLiteral("3,x"));
    QVERIFY(page.shapeErrorText().startsWith(QStringLiteral("Shape:")));
    QCoreApplication::sendPostedEvents();
    page.layout()->activate();
    QCOMPARE(expression->geometry(), before);
}

// The chain's failure ("Step 2 fails: view size is not compatible …") took a row of its own when it
// appeared: the example buttons and the step list under it jumped down, and back up on the fix. Its row is
// there before the message is, as tall as the message needs, in the page's type and in presentation
// mode's larger type.
void TestTensorPage::chainMessageMovesNothing_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<double>("fontScale");
    QTest::newRow("1000x700") << QSize(1000, 700) << 1.0;
    QTest::newRow("760x600") << QSize(760, 600) << 1.0;
    QTest::newRow("1024x768 presentation") << QSize(1024, 768) << 1.45;
}

void TestTensorPage::chainMessageMovesNothing() {
    QFETCH(QSize, size);
    QFETCH(double, fontScale);
    TensorPage page;
    QVERIFY(showAt(page, size, fontScale));
    QPushButton* fails = button(page, QStringLiteral("Transpose → view fails"));
    QPushButton* fix = button(page, QStringLiteral(".contiguous() fix"));
    auto* steps = page.findChild<QListWidget*>();
    const auto settle = [&page] {
        QCoreApplication::sendPostedEvents();
        page.layout()->activate();
        QCoreApplication::processEvents();
    };
    settle();
    const QRect buttonBefore = fix->geometry();
    const QRect stepsBefore(steps->mapTo(&page, QPoint(0, 0)), steps->size());
    fails->click();
    settle();
    QLabel* message = page.chainErrorLabel();
    QVERIFY(message->text().startsWith(QStringLiteral("Step 2 fails:")));
    QVERIFY(message->isVisible());
    // Whole: every line of it inside its box.
    QVERIFY2(message->heightForWidth(message->width()) <= message->height(),
             qPrintable(QStringLiteral("%1 px of text in a %2 px row")
                            .arg(message->heightForWidth(message->width()))
                            .arg(message->height())));
    QCOMPARE(fix->geometry(), buttonBefore);
    QCOMPARE(QRect(steps->mapTo(&page, QPoint(0, 0)), steps->size()), stepsBefore);
    fix->click();
    settle();
    QVERIFY(message->text().isEmpty());
    QCOMPARE(fix->geometry(), buttonBefore);
    QCOMPARE(QRect(steps->mapTo(&page, QPoint(0, 0)), steps->size()), stepsBefore);
}

#include "tst_tensor_page.moc"
