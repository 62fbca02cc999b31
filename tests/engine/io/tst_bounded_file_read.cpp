// SPDX-License-Identifier: GPL-3.0-or-later
// readBoundedFile: a regular file under its cap is read whole; anything else is refused before a byte is
// read, with the file's name and the reason.
#include "engine/io/bounded_file_read.h"

#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using napkin::BoundedFileRead;
using napkin::readBoundedFile;

class TestBoundedFileRead : public QObject {
    Q_OBJECT
private slots:
    void regularFileIsReadWhole();
    void refused_data();
    void refused();
};

namespace {

std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& bytes) {
    std::string path = dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

} // namespace

void TestBoundedFileRead::regularFileIsReadWhole() {
    QTemporaryDir dir;
    const std::string bytes("a\0b\nc", 5);
    const BoundedFileRead r = readBoundedFile(writeFile(dir, "f", bytes), 5);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.bytes, bytes);
    const BoundedFileRead empty = readBoundedFile(writeFile(dir, "e", ""), 0);
    QVERIFY2(empty.ok(), empty.error.c_str());
    QVERIFY(empty.bytes.empty());
}

void TestBoundedFileRead::refused_data() {
    QTest::addColumn<QString>("path"); // "@DIR" stands for a fresh temporary folder
    QTest::addColumn<QString>("mentions");
    QTest::newRow("/dev/zero: read until memory ran out") << "/dev/zero"
                                                          << "/dev/zero is not a regular file";
    QTest::newRow("/dev/null") << "/dev/null"
                               << "not a regular file";
    QTest::newRow("a folder") << "@DIR"
                              << "not a regular file";
    QTest::newRow("a FIFO: opening would wait for a writer") << "@DIR/fifo"
                                                             << "not a regular file";
    QTest::newRow("missing") << "@DIR/missing"
                             << "cannot open";
    QTest::newRow("one byte over the cap") << "@DIR/big"
                                           << "is 11 bytes, more than the 10 bytes allowed";
}

void TestBoundedFileRead::refused() {
    QFETCH(QString, path);
    QFETCH(QString, mentions);
    QTemporaryDir dir;
    writeFile(dir, "big", "0123456789A");
    QVERIFY(::mkfifo(dir.filePath("fifo").toLocal8Bit().constData(), 0600) == 0);
    const std::string resolved = path.replace("@DIR", dir.path()).toStdString();
    const BoundedFileRead r = readBoundedFile(resolved, 10);
    QVERIFY(!r.ok());
    QVERIFY(r.bytes.empty());
    QVERIFY2(QString::fromStdString(r.error).contains(mentions), r.error.c_str());
    QVERIFY2(r.error.find('\n') == std::string::npos, r.error.c_str());
}

QTEST_APPLESS_MAIN(TestBoundedFileRead)
#include "tst_bounded_file_read.moc"
