// SPDX-License-Identifier: GPL-3.0-or-later
// The counter-based generator every Cruncher trainer draws its data from (engine/compute/counter_normal.h):
// Philox4x32-10 against Random123's published known-answer vectors, the Gaussian samples against an
// independent Python implementation, and the properties that let the CUDA kernel and the CPU trainers share
// it (a pure function of seed, stream and index; no state).
#include "engine/compute/counter_normal.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace napkin;

Q_DECLARE_METATYPE(std::uint64_t)

class TestCounterNormal : public QObject {
    Q_OBJECT
private slots:
    void philoxKnownAnswers_data();
    void philoxKnownAnswers();
    void samplesHaveKnownValues_data();
    void samplesHaveKnownValues();
    void fillIsTheSampleFunction();
    void streamsAndSeedsAreSeparate();
    void moments();
};

void TestCounterNormal::philoxKnownAnswers_data() {
    QTest::addColumn<QList<uint>>("counter");
    QTest::addColumn<QList<uint>>("key");
    QTest::addColumn<QList<uint>>("expected");
    // Random123 1.14, tests/kat_vectors, lines "philox4x32 10 …" (Salmon et al., SC 2011).
    QTest::newRow("zeros") << QList<uint>{0, 0, 0, 0} << QList<uint>{0, 0}
                           << QList<uint>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8};
    QTest::newRow("ones") << QList<uint>{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}
                          << QList<uint>{0xffffffff, 0xffffffff}
                          << QList<uint>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd};
    QTest::newRow("pi") << QList<uint>{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}
                        << QList<uint>{0xa4093822, 0x299f31d0}
                        << QList<uint>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
}

void TestCounterNormal::philoxKnownAnswers() {
    QFETCH(QList<uint>, counter);
    QFETCH(QList<uint>, key);
    QFETCH(QList<uint>, expected);
    const Philox4x32Block out =
        philox4x32_10(Philox4x32Block{{counter[0], counter[1], counter[2], counter[3]}}, key[0], key[1]);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(out.v[i], expected[i]);
}

void TestCounterNormal::samplesHaveKnownValues_data() {
    QTest::addColumn<std::uint64_t>("seed");
    QTest::addColumn<std::uint64_t>("stream");
    QTest::addColumn<std::uint64_t>("index");
    QTest::addColumn<double>("expected");
    // An independent Python implementation (Philox4x32-10 written from the paper, checked against the three
    // known answers above, then Box–Muller: u1 = ((w1·2^32 + w0) >> 11) + 1)·2^-53, u2 = ((w3·2^32 + w2) >>
    // 11)·2^-53, z = √(−2 ln u1)·cos(2π u2)), values printed with repr().
    QTest::newRow("seed 0, w*[0]") << std::uint64_t{0} << std::uint64_t{0} << std::uint64_t{0}
                                   << -0.39766753844418223;
    QTest::newRow("seed 1, w*[0]") << std::uint64_t{1} << std::uint64_t{0} << std::uint64_t{0}
                                   << -0.11368019704496955;
    QTest::newRow("seed 1, w*[3]") << std::uint64_t{1} << std::uint64_t{0} << std::uint64_t{3}
                                   << 2.4267373645001067;
    QTest::newRow("seed 1, step 1, x[0]") << std::uint64_t{1} << std::uint64_t{1} << std::uint64_t{0}
                                          << -1.4778786447594823;
    QTest::newRow("seed 1, step 1, x[17]") << std::uint64_t{1} << std::uint64_t{1} << std::uint64_t{17}
                                           << 0.9498616300668058;
    QTest::newRow("seed 1, step 2, x[0]") << std::uint64_t{1} << std::uint64_t{2} << std::uint64_t{0}
                                          << 1.0596070947669054;
    // Every word of seed, stream and index in use: the high halves reach the key and the counter.
    QTest::newRow("64-bit seed and index") << std::uint64_t{0xdeadbeefcafe} << std::uint64_t{7}
                                           << (std::uint64_t{1} << 33) << -0.26054011759747947;
}

void TestCounterNormal::samplesHaveKnownValues() {
    QFETCH(std::uint64_t, seed);
    QFETCH(std::uint64_t, stream);
    QFETCH(std::uint64_t, index);
    QFETCH(double, expected);
    const double z = counterNormal(seed, stream, index);
    // The same operations in the same order on the same libm: equal to the last bit or one ulp of it.
    QVERIFY2(std::fabs(z - expected) <= 2e-16 * std::fabs(expected),
             qPrintable(QString::number(z, 'g', 17) + " vs " + QString::number(expected, 'g', 17)));
}

// The host fill the CPU trainers use is the per-element function the CUDA kernel calls, element by element:
// the same value at every index whatever the count (no state carried between elements).
void TestCounterNormal::fillIsTheSampleFunction() {
    std::vector<float> all(1000), tail(10);
    fillCounterNormal(all.data(), all.size(), 1, cruncherBatchStream(3), 0.5);
    for (std::size_t i = 0; i < all.size(); ++i)
        QCOMPARE(all[i], static_cast<float>(counterNormal(1, 3, i) * 0.5));
    fillCounterNormal(tail.data(), tail.size(), 1, cruncherBatchStream(3), 0.5);
    for (std::size_t i = 0; i < tail.size(); ++i)
        QCOMPARE(tail[i], all[i]);
}

void TestCounterNormal::streamsAndSeedsAreSeparate() {
    QCOMPARE(cruncherBatchStream(1), std::uint64_t{1});
    QVERIFY(cruncherBatchStream(1) != kCruncherTargetStream);
    int equal = 0;
    for (std::uint64_t i = 0; i < 256; ++i) {
        const double a = counterNormal(1, 1, i);
        equal += a == counterNormal(1, 2, i); // the next step's batch
        equal += a == counterNormal(2, 1, i); // another seed
        equal += a == counterNormal(1, 1, i + 1);
    }
    QCOMPARE(equal, 0);
}

// N(0, 1) by its first two moments over 2^16 samples: mean within 4 standard errors (4/256), variance
// within 4·√(2/n) ≈ 0.022 of 1. A broken transform (a uniform, a swapped word) misses both.
void TestCounterNormal::moments() {
    constexpr std::uint64_t n = 1 << 16;
    double sum = 0, squares = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const double z = counterNormal(42, 5, i);
        QVERIFY(std::isfinite(z));
        sum += z;
        squares += z * z;
    }
    const double mean = sum / n, variance = squares / n - mean * mean;
    QVERIFY2(std::fabs(mean) < 4.0 / 256, qPrintable(QString::number(mean)));
    QVERIFY2(std::fabs(variance - 1) < 0.022, qPrintable(QString::number(variance)));
}

QTEST_APPLESS_MAIN(TestCounterNormal)
#include "tst_counter_normal.moc"
