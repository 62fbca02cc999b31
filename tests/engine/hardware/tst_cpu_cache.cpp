// SPDX-License-Identifier: GPL-3.0-or-later
// The last-level cache as sysfs describes it: the size text and the choice of the highest level, read
// from a made-up sysfs tree (the real machine's varies).
#include "engine/hardware/cpu_cache.h"

#include <QtTest>

#include <fstream>
#include <string>

using namespace napkin;

class TestCpuCache : public QObject {
    Q_OBJECT
private slots:
    void parsesSizeText_data();
    void parsesSizeText();
    void picksTheHighestDataOrUnifiedLevel();
    void missingDirectoryIsUnknown();
};

void TestCpuCache::parsesSizeText_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qulonglong>("bytes"); // 0: refused
    QTest::newRow("L1d 48K") << "48K" << qulonglong{49152};
    QTest::newRow("L3 266240K (this VM)") << "266240K\n" << qulonglong{272629760};
    QTest::newRow("32M") << "32M" << qulonglong{33554432};
    QTest::newRow("1G") << "1G" << qulonglong{1073741824};
    QTest::newRow("plain bytes") << "512" << qulonglong{512};
    QTest::newRow("unknown suffix") << "48KB" << qulonglong{0};
    QTest::newRow("lower case") << "48k" << qulonglong{0};
    QTest::newRow("empty") << "" << qulonglong{0};
    QTest::newRow("words") << "big" << qulonglong{0};
}

void TestCpuCache::parsesSizeText() {
    QFETCH(QString, text);
    QFETCH(qulonglong, bytes);
    const auto got = parseCacheSizeText(text.toStdString());
    if (bytes == 0) {
        QVERIFY(!got);
        return;
    }
    QVERIFY(got);
    QCOMPARE(qulonglong{*got}, bytes);
}

namespace {
void writeIndex(const QString& root, int index, const char* level, const char* type, const char* size) {
    const QString dir = root + "/index" + QString::number(index);
    QVERIFY(QDir().mkpath(dir));
    for (const auto& [name, value] : {std::pair{"level", level}, {"type", type}, {"size", size}}) {
        std::ofstream out((dir + "/" + name).toStdString());
        out << value << '\n';
    }
}
} // namespace

void TestCpuCache::picksTheHighestDataOrUnifiedLevel() {
    QTemporaryDir root;
    QVERIFY(root.isValid());
    writeIndex(root.path(), 0, "1", "Data", "48K");
    writeIndex(root.path(), 1, "1", "Instruction", "32K");
    writeIndex(root.path(), 2, "2", "Unified", "2048K");
    writeIndex(root.path(), 3, "3", "Unified", "32M");
    const auto llc = readLastLevelCacheBytes(root.path().toStdString());
    QVERIFY(llc);
    QCOMPARE(qulonglong{*llc}, qulonglong{33554432});
}

void TestCpuCache::missingDirectoryIsUnknown() {
    QVERIFY(!readLastLevelCacheBytes("/nonexistent/napkin/cache"));
}

QTEST_APPLESS_MAIN(TestCpuCache)
#include "tst_cpu_cache.moc"
