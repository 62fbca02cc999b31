// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 35: every file dialog opened in the working folder. The app's dialogs now start in the folder last
// chosen in any of them, kept in QSettings.
#include "app/export/file_dialogs.h"

#include <QDir>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

class TestFileDialogs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // a settings file of the test's own
        QSettings().clear();
    }
    void cleanupTestCase() { QSettings().clear(); }

    void beforeAnyChoiceTheSuggestionStandsAlone() {
        QSettings().clear();
        QCOMPARE(inLastFolder(QStringLiteral("memory.png")), QStringLiteral("memory.png"));
        QCOMPARE(inLastFolder(), QString());
    }
    void theNextDialogStartsWhereTheLastEnded() {
        QTemporaryDir slides;
        rememberFolderOf(QDir(slides.path()).filePath(QStringLiteral("lecture 3/../flops.pdf")));
        QCOMPARE(inLastFolder(QStringLiteral("memory.png")),
                 QDir(slides.path()).filePath(QStringLiteral("memory.png")));
        QCOMPARE(QDir(inLastFolder()), QDir(slides.path()));
        rememberFolderOf(QString()); // a cancelled dialog changes nothing
        QCOMPARE(QDir(inLastFolder()), QDir(slides.path()));
    }
    void aFolderSinceRemovedIsForgotten() {
        QString gone;
        {
            QTemporaryDir removed;
            gone = removed.path();
            rememberFolderOf(QDir(gone).filePath(QStringLiteral("a.png")));
        }
        QCOMPARE(inLastFolder(QStringLiteral("a.png")), QStringLiteral("a.png"));
    }
};

QTEST_MAIN(TestFileDialogs)
#include "tst_file_dialogs.moc"
