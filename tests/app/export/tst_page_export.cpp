// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Export current page as a slide gets it: the page without its scroll bars (a picture cannot be
// scrolled; the bars took a strip off the answers) and with its setup under it in one line, the napkin-cli
// command that reproduces the page. Read off the picture: the scroll bars are painted a colour nothing else
// on the page has, so a pixel of it in the PNG is a scroll bar; the caption is the SVG's text.
#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/shell/main_window.h"

#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QColor kBarColour(255, 0, 255); // magenta: no page draws it

// Pixels of `image` within a few levels of the scroll bars' colour.
int barPixels(const QImage& image) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            n += std::abs(qRed(line[x]) - 255) < 8 && qGreen(line[x]) < 8 && std::abs(qBlue(line[x]) - 255) < 8;
    }
    return n;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void saveForReview(const QImage& image, const QString& name) {
    const QString dir = QString::fromLocal8Bit(qgetenv("NAPKIN_PICTURE_DIR"));
    if (!dir.isEmpty())
        image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

} // namespace

class TestPageExport : public QObject {
    Q_OBJECT
private slots:
    void pageHasNoScrollBarsAndSaysItsSetup();
};

// The Accounting page at a projector's 1280×720, where its answers pane scrolls on screen.
void TestPageExport::pageHasNoScrollBarsAndSaysItsSetup() {
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    for (int pass = 0; pass < 4; ++pass)
        QCoreApplication::processEvents();
    QWidget* page = w.pages()->currentWidget();
    QCOMPARE(page, static_cast<QWidget*>(w.accountingPage()));
    QScrollArea* answers = nullptr;
    for (QWidget* p = w.accountingPage()->answers(); p && !answers; p = p->parentWidget())
        answers = qobject_cast<QScrollArea*>(p);
    QVERIFY(answers);
    for (QScrollBar* bar : page->findChildren<QScrollBar*>())
        bar->setStyleSheet(QStringLiteral("QScrollBar { background: %1; border: none; }"
                                          "QScrollBar::handle { background: %1; }")
                               .arg(kBarColour.name()));
    QCoreApplication::processEvents();
    // On screen the answers scroll, and their bar shows in the page's colours: the test can see one.
    QVERIFY(answers->verticalScrollBar()->isVisible());
    const QImage screen = page->grab().toImage();
    saveForReview(screen, QStringLiteral("page-export-screen"));
    QVERIFY2(barPixels(screen) > 500, qPrintable(QString::number(barPixels(screen))));

    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("accounting.png"));
    QCOMPARE(w.exportCurrentPage(png), QString());
    const QImage picture(png);
    QVERIFY(!picture.isNull());
    QCOMPARE(picture.size(), page->size() * 2); // twice the screen's resolution, for slides
    saveForReview(picture, QStringLiteral("page-export"));
    QCOMPARE(barPixels(picture), 0);
    // The page on screen is as it was: its bars and its size back.
    QVERIFY(answers->verticalScrollBar()->isVisible());
    QCOMPARE(w.pages()->currentWidget()->size(), screen.size() / screen.devicePixelRatio());

    // The caption: the command Edit ▸ Copy as command gives, under the page.
    QString command = w.pageCommand();
    QVERIFY(command.startsWith(QStringLiteral("napkin-cli account")));
    QVERIFY(command.endsWith(QStringLiteral(" --json")));
    command.chop(7); // the setup, not the output's format
    const QString svg = dir.filePath(QStringLiteral("accounting.svg"));
    QCOMPARE(w.exportCurrentPage(svg), QString());
    const QString text = QString::fromUtf8(readAll(svg));
    // One line: elided in the middle when longer than the page is wide, so its two ends are there.
    QVERIFY2(text.contains(command.left(24).toHtmlEscaped()), qPrintable(command));
    QVERIFY2(text.contains(command.right(12).toHtmlEscaped() + QStringLiteral("</text>")), qPrintable(command));
}

QTEST_MAIN(TestPageExport)
#include "tst_page_export.moc"
