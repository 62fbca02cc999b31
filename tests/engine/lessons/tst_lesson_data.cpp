// SPDX-License-Identifier: GPL-3.0-or-later
// The data-loading lesson: a flat token file, memory-mapped; get_batch's random windows; what stays
// resident while sampling a file 1000× larger than the batch.
#include "engine/lessons/batch_sampler.h"
#include "engine/lessons/token_file_generator.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

#include <sys/stat.h>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::TokenType)

namespace {
// On the build tree's disk, not a tmpfs /tmp: there the page cache *is* the file and nothing can be dropped.
QTemporaryDir makeDir() {
    return QTemporaryDir(QDir::current().filePath(QStringLiteral("lesson-data-XXXXXX")));
}

void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}
} // namespace

class TestLessonData : public QObject {
    Q_OBJECT
private slots:
    void windowsAreTheFile_data();
    void windowsAreTheFile();
    void fileIsLittleEndianTokens();
    void offsetsFollowTheLecture();
    void sameSeedSameBatches();
    void errors_data();
    void errors();
    void windowLongerThanFile();
    void residentMemoryStaysBounded();
    void lectureSizing();
    void moveLeavesAnEmptyDataset();
};

void TestLessonData::windowsAreTheFile_data() {
    QTest::addColumn<TokenType>("type");
    QTest::addColumn<long>("batch");
    QTest::addColumn<long>("context");
    QTest::newRow("uint16, 4×16") << TokenType::uint16 << 4L << 16L;
    QTest::newRow("uint16, 32×1024") << TokenType::uint16 << 32L << 1024L;
    QTest::newRow("int32, 8×100") << TokenType::int32 << 8L << 100L;
    QTest::newRow("int32, 1×1") << TokenType::int32 << 1L << 1L;
}

void TestLessonData::windowsAreTheFile() {
    QFETCH(TokenType, type);
    QFETCH(long, batch);
    QFETCH(long, context);
    const QTemporaryDir dir = makeDir();
    const std::string path = dir.filePath(QStringLiteral("tokens.bin")).toStdString();
    const std::uint64_t tokens = 50000, seed = 5;
    writeDemoTokenFile(path, tokens, type, seed);
    const TokenDataset data(path, type);
    QCOMPARE(data.tokens(), tokens);
    QCOMPARE(data.fileBytes(), tokens * tokenBytes(type));
    BatchSampler sampler(data, batch, context, 9);
    for (int round = 0; round < 5; ++round) {
        const TokenBatch b = sampler.next();
        QCOMPARE(b.offsets.size(), static_cast<std::size_t>(batch));
        QCOMPARE(b.tokens.size(), static_cast<std::size_t>(batch * context));
        for (long r = 0; r < batch; ++r) {
            const std::uint64_t offset = b.offsets[static_cast<std::size_t>(r)];
            QVERIFY(offset < tokens - static_cast<std::uint64_t>(context));
            for (long i = 0; i < context; ++i)
                QCOMPARE(b.tokens[static_cast<std::size_t>(r * context + i)],
                         demoTokenAt(offset + static_cast<std::uint64_t>(i), seed, type));
        }
    }
}

void TestLessonData::fileIsLittleEndianTokens() {
    const QTemporaryDir dir = makeDir();
    const QString path = dir.filePath(QStringLiteral("known.bin"));
    // uint16 tokens 1, 258, 65535; int32 view of the same 6 bytes is not asked for (6 % 4 ≠ 0).
    writeBytes(path, QByteArray::fromHex("010002 01ffff"));
    const TokenDataset data(path.toStdString(), TokenType::uint16);
    QCOMPARE(data.tokens(), std::uint64_t{3});
    QCOMPARE(data.token(0), std::int64_t{1});
    QCOMPARE(data.token(1), std::int64_t{258});
    QCOMPARE(data.token(2), std::int64_t{65535});
    const QString path32 = dir.filePath(QStringLiteral("known32.bin"));
    writeBytes(path32, QByteArray::fromHex("ffffffff 00010000"));
    const TokenDataset data32(path32.toStdString(), TokenType::int32);
    QCOMPARE(data32.token(0), std::int64_t{-1});
    QCOMPARE(data32.token(1), std::int64_t{256});
}

void TestLessonData::offsetsFollowTheLecture() {
    // torch.randint(len(data) − L, (B,)): offsets 0 .. N − L − 1; the last window (N − L) is never drawn.
    const QTemporaryDir dir = makeDir();
    const std::string path = dir.filePath(QStringLiteral("small.bin")).toStdString();
    writeDemoTokenFile(path, 10, TokenType::int32, 1);
    const TokenDataset data(path, TokenType::int32);
    BatchSampler sampler(data, 64, 7, 2);
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 10; ++i)
        for (std::uint64_t o : sampler.next().offsets)
            seen.insert(o);
    QCOMPARE(seen, (std::set<std::uint64_t>{0, 1, 2}));
}

void TestLessonData::sameSeedSameBatches() {
    const QTemporaryDir dir = makeDir();
    const std::string path = dir.filePath(QStringLiteral("t.bin")).toStdString();
    writeDemoTokenFile(path, 4096, TokenType::uint16, 3);
    const TokenDataset data(path, TokenType::uint16);
    BatchSampler a(data, 8, 32, 42), b(data, 8, 32, 42), c(data, 8, 32, 43);
    const TokenBatch ba = a.next(), bb = b.next(), bc = c.next();
    QCOMPARE(ba.offsets, bb.offsets);
    QCOMPARE(ba.tokens, bb.tokens);
    QVERIFY(ba.offsets != bc.offsets);
}

void TestLessonData::errors_data() {
    QTest::addColumn<QByteArray>("content"); // null: no file is written
    QTest::addColumn<TokenType>("type");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("node"); // what else sits at the path: "", "folder" or "fifo"
    QTest::newRow("missing file") << QByteArray() << TokenType::uint16 << QStringLiteral("cannot open") << "";
    QTest::newRow("empty file") << QByteArray("") << TokenType::uint16 << QStringLiteral("is empty") << "";
    QTest::newRow("5 bytes of uint16")
        << QByteArray("abcde") << TokenType::uint16 << QStringLiteral("not a whole number") << "";
    QTest::newRow("6 bytes of int32")
        << QByteArray("abcdef") << TokenType::int32 << QStringLiteral("not a whole number") << "";
    QTest::newRow("a folder") << QByteArray() << TokenType::uint16 << QStringLiteral("not a regular file")
                              << "folder";
    // Opening a FIFO waited for a writer that never came: the lesson hung instead of refusing.
    QTest::newRow("a FIFO") << QByteArray() << TokenType::uint16 << QStringLiteral("not a regular file")
                            << "fifo";
}

void TestLessonData::errors() {
    QFETCH(QByteArray, content);
    QFETCH(TokenType, type);
    QFETCH(QString, message);
    QFETCH(QString, node);
    const QTemporaryDir dir = makeDir();
    const QString path = dir.filePath(QStringLiteral("bad.bin"));
    if (!content.isNull())
        writeBytes(path, content);
    if (node == QLatin1String("folder"))
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("bad.bin")));
    if (node == QLatin1String("fifo"))
        QCOMPARE(::mkfifo(path.toLocal8Bit().constData(), 0600), 0);
    try {
        const TokenDataset data(path.toStdString(), type);
        QFAIL("no exception");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains(path), e.what());
    }
}

void TestLessonData::windowLongerThanFile() {
    const QTemporaryDir dir = makeDir();
    const std::string path = dir.filePath(QStringLiteral("short.bin")).toStdString();
    writeDemoTokenFile(path, 100, TokenType::uint16, 1);
    const TokenDataset data(path, TokenType::uint16);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BatchSampler(data, 1, 100, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BatchSampler(data, 1, 1000, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BatchSampler(data, 0, 10, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             BatchSampler(data, 1 << 21, 99, 0)); // 2^21·99 > 2^27 tokens
    BatchSampler fits(data, 1, 99, 0);                            // one window: offset 0
    QCOMPARE(fits.next().offsets.front(), std::uint64_t{0});
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, [&] {
        std::int32_t out[2];
        data.copyTokens(99, 2, out);
    }());
}

void TestLessonData::residentMemoryStaysBounded() {
    // A 64 MiB uint16 file = 1024 × a 32×1024 batch (64 KiB). Sampling maps only the pages the windows
    // touch: after 20 batches at most 20·32·2 pages are resident, about 5 MiB of 64.
    const long B = 32, L = 1024, batches = 20;
    const std::uint64_t tokens = 1000ull * B * L + 1024ull * 1024; // > 1000× the batch
    const QTemporaryDir dir = makeDir();
    const std::string path = dir.filePath(QStringLiteral("big.bin")).toStdString();
    writeDemoTokenFile(path, tokens, TokenType::uint16, 8);
    const TokenDataset data(path, TokenType::uint16);
    QVERIFY(data.fileBytes() >= 1000ull * B * L * 2);
    const std::uint64_t page = TokenDataset::pageBytes();
    const std::uint64_t before = data.residentBytes();
    if (before > data.fileBytes() / 100)
        QSKIP("this filesystem kept the freshly written file in the page cache (tmpfs?): residency cannot be "
              "measured");
    BatchSampler sampler(data, B, L, 1);
    for (long i = 0; i < batches; ++i) {
        const TokenBatch b = sampler.next();
        QCOMPARE(b.tokens[5], demoTokenAt(b.offsets[0] + 5, 8, TokenType::uint16));
    }
    const std::uint64_t after = data.residentBytes();
    const auto sizing = sizeDataset(static_cast<double>(data.fileBytes()), TokenType::uint16, B, L,
                                    static_cast<double>(page));
    // Slack for other readers of the same pages: 64 pages.
    const double bound = static_cast<double>(before) +
                         batches * sizing.batchPagesAtMost * static_cast<double>(page) +
                         64.0 * static_cast<double>(page);
    QVERIFY2(static_cast<double>(after) <= bound,
             qPrintable(QStringLiteral("resident %1 B, bound %2 B").arg(after).arg(bound, 0, 'f', 0)));
    QVERIFY(after > before);                // the windows were read through the mapping
    QVERIFY(after < data.fileBytes() / 10); // never read whole
}

void TestLessonData::lectureSizing() {
    // 2.8 TB of int32 tokens = 7e11 tokens; a 32×1024 batch copies 131072 bytes and touches at most
    // 32·(⌈4096/4096⌉ + 1) = 64 pages.
    const DatasetSizing s = sizeDataset(2.8e12, TokenType::int32, 32, 1024, 4096);
    QCOMPARE(s.tokens, 7e11);
    QCOMPARE(s.batchBytes, 131072.0);
    QCOMPARE(s.batchPagesAtMost, 64.0);
    QCOMPARE(s.pages, std::ceil(2.8e12 / 4096));
}

void TestLessonData::moveLeavesAnEmptyDataset() {
    const QTemporaryDir dir = makeDir();
    const std::string path = dir.filePath(QStringLiteral("m.bin")).toStdString();
    writeDemoTokenFile(path, 64, TokenType::uint16, 1);
    TokenDataset a(path, TokenType::uint16);
    TokenDataset b(std::move(a));
    QCOMPARE(b.tokens(), std::uint64_t{64});
    // The moved-from state is the specification here: empty, nothing mapped.
    // NOLINTBEGIN(bugprone-use-after-move,clang-analyzer-cplusplus.Move)
    QCOMPARE(a.fileBytes(), std::uint64_t{0});
    QCOMPARE(a.residentBytes(), std::uint64_t{0});
    // NOLINTEND(bugprone-use-after-move,clang-analyzer-cplusplus.Move)
}

QTEST_APPLESS_MAIN(TestLessonData)
#include "tst_lesson_data.moc"
