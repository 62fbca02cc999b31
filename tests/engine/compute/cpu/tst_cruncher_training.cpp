// SPDX-License-Identifier: GPL-3.0-or-later
// The lecture's Cruncher trained on the CPU: update rules, falling loss, measured memory = the
// formula, checkpoint round trip (and a damaged checkpoint refused whole), counted FLOPs.
#include "engine/accounting/accounting.h"
#include "engine/compute/cpu/cpu_backend.h"
#include "engine/compute/cpu/optimizer_step.h"
#include "engine/io/crc32.h"
#include "tests/support/cruncher_configs.h"

#include <QtTest>

#include <QFile>

#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::OptimizerKind)

namespace {
CpuBackend& backend() {
    static CpuBackend b([] {
        CpuBackendOptions o;
        o.measurePeak = false;
        return o;
    }());
    return b;
}
double mean(const std::vector<double>& v, std::size_t from, std::size_t to) {
    return std::accumulate(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to), 0.0) /
           static_cast<double>(to - from);
}
} // namespace

class TestCruncherTraining : public QObject {
    Q_OBJECT
private slots:
    void updateRule_data();
    void updateRule();
    void lossFalls_data();
    void lossFalls();
    void measuredMemoryIsPredicted_data();
    void measuredMemoryIsPredicted();
    void checkpointResumesTheSameLosses();
    void damagedCheckpointChangesNothing_data();
    void damagedCheckpointChangesNothing();
    void seedsAreDeterministicAndSeparate();
    void countedFlops_data();
    void countedFlops();
};

void TestCruncherTraining::updateRule_data() {
    QTest::addColumn<OptimizerKind>("kind");
    QTest::addColumn<double>("lr");
    QTest::addColumn<long>("step");
    QTest::addColumn<float>("s1");
    QTest::addColumn<float>("s2");
    QTest::addColumn<double>("p1"); // expected after the update, from p = 1, g = 0.5
    QTest::addColumn<double>("s1After");
    QTest::addColumn<double>("s2After");
    const auto sgd = OptimizerKind::sgd, mom = OptimizerKind::momentum, ada = OptimizerKind::adagrad,
               rms = OptimizerKind::rmsprop, adam = OptimizerKind::adam, adamw = OptimizerKind::adamw;
    // p −= 0.1·0.5
    QTest::newRow("sgd") << sgd << 0.1 << 1L << 0.f << 0.f << 0.95 << 0.0 << 0.0;
    // v = 0.9·0.2 + 0.5 = 0.68; p = 1 − 0.1·0.68
    QTest::newRow("momentum") << mom << 0.1 << 2L << 0.2f << 0.f << 0.932 << 0.68 << 0.0;
    // g2 = 0.25; p = 1 − 0.1·0.5/√0.25001 = 0.90000199996
    QTest::newRow("adagrad, first step") << ada << 0.1 << 1L << 0.f << 0.f << 0.90000199996 << 0.25 << 0.0;
    // g2 = 0.75 + 0.25 = 1; p = 1 − 0.1·0.5/√1.00001 = 0.95000025
    QTest::newRow("adagrad, accumulated") << ada << 0.1 << 4L << 0.75f << 0.f << 0.9500002500 << 1.0 << 0.0;
    // s = 0.01·0.25 = 0.0025; p = 1 − 0.01·0.5/(0.05 + 1e-8)
    QTest::newRow("rmsprop") << rms << 0.01 << 1L << 0.f << 0.f << 0.9000000200 << 0.0025 << 0.0;
    // m = 0.05, v = 0.00025; m̂ = 0.5, v̂ = 0.25; p = 1 − 0.1·0.5/(0.5 + 1e-8)
    QTest::newRow("adam, step 1") << adam << 0.1 << 1L << 0.f << 0.f << 0.900000002 << 0.05 << 0.00025;
    // m = 0.9·0.05 + 0.05 = 0.095, v = 0.999·0.00025 + 0.00025 = 0.00049975; m̂ = 0.095/0.19 = 0.5,
    // v̂ = 0.00049975/0.001999 = 0.25; p = 1 − 0.1·0.5/0.5
    QTest::newRow("adam, step 2") << adam << 0.1 << 2L << 0.05f << 0.00025f << 0.900000002 << 0.095
                                  << 0.00049975;
    // p = 1 − 0.1·0.01·1 = 0.999, then − 0.1·0.5/0.5
    QTest::newRow("adamw, step 1") << adamw << 0.1 << 1L << 0.f << 0.f << 0.899000002 << 0.05 << 0.00025;
}

void TestCruncherTraining::updateRule() {
    QFETCH(OptimizerKind, kind);
    QFETCH(double, lr);
    QFETCH(long, step);
    QFETCH(float, s1);
    QFETCH(float, s2);
    QFETCH(double, p1);
    QFETCH(double, s1After);
    QFETCH(double, s2After);
    OptimizerHyper h;
    h.learningRate = lr;
    float p[] = {1.f}, s1v[] = {s1}, s2v[] = {s2};
    const float g[] = {0.5f};
    applyOptimizerStep(kind, h, step, p, g, s1v, s2v);
    QVERIFY2(std::abs(p[0] - p1) < 1e-6,
             qPrintable(QString("p = %1, expected %2").arg(p[0], 0, 'g', 10).arg(p1, 0, 'g', 10)));
    QVERIFY2(std::abs(s1v[0] - s1After) < 1e-7, qPrintable(QString("s1 = %1").arg(s1v[0], 0, 'g', 10)));
    QVERIFY2(std::abs(s2v[0] - s2After) < 1e-8, qPrintable(QString("s2 = %1").arg(s2v[0], 0, 'g', 10)));
}

void TestCruncherTraining::lossFalls_data() {
    QTest::addColumn<OptimizerKind>("kind");
    for (OptimizerKind k : allOptimizers())
        QTest::newRow(std::string(optimizerName(k)).c_str()) << k;
}

void TestCruncherTraining::lossFalls() {
    QFETCH(OptimizerKind, kind);
    auto trainer = backend().makeCruncherTrainer(cruncherConfig(8, 2, 32, kind));
    std::vector<double> losses;
    for (int s = 0; s < 300; ++s)
        losses.push_back(trainer->step());
    const double first = mean(losses, 0, 20), last = mean(losses, 280, 300);
    QVERIFY2(last < 0.25 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
    QCOMPARE(trainer->stepsDone(), 300L);
}

void TestCruncherTraining::measuredMemoryIsPredicted_data() {
    QTest::addColumn<long>("d");
    QTest::addColumn<long>("l");
    QTest::addColumn<long>("b");
    QTest::addColumn<OptimizerKind>("kind");
    QTest::addColumn<double>("bytes"); // parameters + gradients + optimizer state + activations, fp32
    // The lecture: params 36, activations 16, grads 36, state 36 → 4·124 = 496 bytes.
    QTest::newRow("lecture D=4 L=2 B=2 AdaGrad") << 4L << 2L << 2L << OptimizerKind::adagrad << 496.0;
    QTest::newRow("D=4 L=2 B=2 SGD: no state")
        << 4L << 2L << 2L << OptimizerKind::sgd << 4.0 * (36 + 36 + 16);
    QTest::newRow("D=4 L=2 B=2 AdamW: two states")
        << 4L << 2L << 2L << OptimizerKind::adamw << 4.0 * (4 * 36 + 16);
    // P = 3·64 + 8 = 200; 4·(3·200 + 5·8·3)
    QTest::newRow("D=8 L=3 B=5 momentum") << 8L << 3L << 5L << OptimizerKind::momentum << 2880.0;
    // P = 256 + 16 = 272; 4·(4·272 + 1·16·1)
    QTest::newRow("D=16 L=1 B=1 Adam") << 16L << 1L << 1L << OptimizerKind::adam << 4416.0;
    // P = 4·1024 + 32 = 4128; 4·(3·4128 + 7·32·4)
    QTest::newRow("D=32 L=4 B=7 RMSProp") << 32L << 4L << 7L << OptimizerKind::rmsprop << 53120.0;
}

void TestCruncherTraining::measuredMemoryIsPredicted() {
    QFETCH(long, d);
    QFETCH(long, l);
    QFETCH(long, b);
    QFETCH(OptimizerKind, kind);
    QFETCH(double, bytes);
    auto trainer = backend().makeCruncherTrainer(cruncherConfig(d, l, b, kind));
    trainer->step(); // the state is made at the first update; gradients and activations come and go
    trainer->step();
    const MemoryLedger& m = trainer->ledger();
    const auto peak = [&](MemoryTag tag) { return m.peakBytes(tag); };
    QCOMPARE(peak(MemoryTag::parameters) + peak(MemoryTag::gradients) + peak(MemoryTag::optimizerState) +
                 peak(MemoryTag::activations),
             bytes);
    AccountingInput in;
    in.model.kind = ModelKind::cruncher;
    in.model.dim = static_cast<double>(d);
    in.model.layers = static_cast<double>(l);
    in.batch = static_cast<double>(b);
    in.optimizer = kind;
    in.precision = PrecisionRecipe::fp32;
    QVERIFY(validate(in).ok());
    const AccountingResult r = account(in, *GpuCatalog::builtIn().find(in.gpu));
    // Each component at its peak is the formula's; between steps only parameters and state are held.
    QCOMPARE(peak(MemoryTag::parameters), r.memory.parameters.value);
    QCOMPARE(peak(MemoryTag::gradients), r.memory.gradients.value);
    QCOMPARE(peak(MemoryTag::optimizerState), r.memory.optimizerState.value);
    QCOMPARE(peak(MemoryTag::activations), r.memory.activations.value);
    QCOMPARE(peak(MemoryTag::masterWeights), 0.0);
    QCOMPARE(r.memory.masterWeights.value, 0.0);
    QCOMPARE(m.countedBytes(), r.memory.parameters.value + r.memory.optimizerState.value);
    QCOMPARE(m.currentBytes(MemoryTag::gradients) + m.currentBytes(MemoryTag::activations) +
                 m.currentBytes(MemoryTag::workspace),
             0.0);
    // Outside the formula: X (B·D), targets (B), the target function (D); at most two B·D dL/dh at once
    // (one layer's output gradient and its input's), or, with one layer, dL/dy (B) and dL/dh_1 (B·D).
    QCOMPARE(m.currentBytes(MemoryTag::inputs), 4.0 * static_cast<double>(b * d + b + d));
    QCOMPARE(peak(MemoryTag::workspace), 4.0 * static_cast<double>(l > 1 ? 2 * b * d : b + b * d));
}

void TestCruncherTraining::checkpointResumesTheSameLosses() {
    const QString path = QDir::temp().filePath("napkin_tst_cruncher.ckpt");
    const CruncherConfig config = cruncherConfig(6, 3, 4, OptimizerKind::adam);
    auto a = backend().makeCruncherTrainer(config);
    for (int s = 0; s < 5; ++s)
        a->step();
    a->saveCheckpoint(path.toStdString());
    std::vector<double> continued;
    for (int s = 0; s < 5; ++s)
        continued.push_back(a->step());

    auto b = backend().makeCruncherTrainer(config);
    b->loadCheckpoint(path.toStdString());
    QCOMPARE(b->stepsDone(), 5L);
    std::vector<double> resumed;
    for (int s = 0; s < 5; ++s)
        resumed.push_back(b->step());
    QCOMPARE(resumed, continued); // bit for bit: parameters, Adam's m and v, step and data stream restored
    QCOMPARE(b->parameters(), a->parameters());

    auto other = backend().makeCruncherTrainer(cruncherConfig(6, 2, 4, OptimizerKind::adam));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, other->loadCheckpoint(path.toStdString()));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, other->loadCheckpoint("/nonexistent/napkin.ckpt"));
    std::remove(path.toStdString().c_str());
}

// A checkpoint that is cut short, padded, damaged, of another version or not one at all is refused with a
// message before anything is read into the trainer: its weights, optimizer state, step count and data
// stream stay as they were.
void TestCruncherTraining::damagedCheckpointChangesNothing_data() {
    QTest::addColumn<int>("keepBytes"); // bytes of the good file kept; -1: all of it
    QTest::addColumn<QByteArray>("append");
    QTest::addColumn<int>("at"); // where `overwrite` goes; -1: nowhere
    QTest::addColumn<QByteArray>("overwrite");
    QTest::addColumn<bool>("reseal"); // recompute the payload's CRC-32 after overwriting
    QTest::addColumn<QString>("message");
    // Adam, D=6, L=3: 3·(3·36) + 3·6 = 342 floats after the 64-byte header, then the generator's text.
    const auto bytesOf = [](auto value) {
        return QByteArray(reinterpret_cast<const char*>(&value), sizeof value);
    };
    const QByteArray none;
    QTest::newRow("empty") << 0 << none << -1 << none << false << "is not a napkin Cruncher checkpoint";
    QTest::newRow("magic only") << 8 << none << -1 << none << false << "is truncated";
    QTest::newRow("header cut") << 30 << none << -1 << none << false << "is truncated";
    QTest::newRow("tensors cut") << 64 + 4 * 200 << none << -1 << none << false << "is truncated";
    QTest::newRow("before generator") << 64 + 4 * 342 << none << -1 << none << false << "is truncated";
    QTest::newRow("generator cut") << 64 + 4 * 342 + 8 + 100 << none << -1 << none << false << "is truncated";
    QTest::newRow("last byte cut") << -2 << none << -1 << none << false << "is truncated";
    QTest::newRow("bytes after the end")
        << -1 << QByteArray("x") << -1 << none << false << "has bytes after the checkpoint's end";
    QTest::newRow("not a checkpoint") << 0 << QByteArray("PK\x03\x04 a zip file, say") << -1 << none << false
                                      << "is not a napkin Cruncher checkpoint";
    QTest::newRow("version 1") << -1 << none << 7 << QByteArray("1") << false
                               << "is a version 1 Cruncher checkpoint";
    QTest::newRow("weight NaN, checksum stale")
        << -1 << none << 64 << bytesOf(std::numeric_limits<float>::quiet_NaN()) << false << "CRC-32";
    QTest::newRow("weight 3e38, checksum stale") << -1 << none << 64 << bytesOf(3e38f) << false << "CRC-32";
    QTest::newRow("weight inf, checksum resealed")
        << -1 << none << 64 + 4 * 7 << bytesOf(std::numeric_limits<float>::infinity()) << true
        << "not a finite number (tensor 0, element 7)";
    QTest::newRow("step INT64_MAX") << -1 << none << 40 << bytesOf(std::numeric_limits<qint64>::max())
                                    << false << "outside 0 to 2^53";
    QTest::newRow("step -1") << -1 << none << 40 << bytesOf(qint64{-1}) << false << "outside 0 to 2^53";
}

void TestCruncherTraining::damagedCheckpointChangesNothing() {
    QFETCH(int, keepBytes);
    QFETCH(QByteArray, append);
    QFETCH(int, at);
    QFETCH(QByteArray, overwrite);
    QFETCH(bool, reseal);
    QFETCH(QString, message);
    const QString path = QDir::temp().filePath("napkin_tst_cruncher_damaged.ckpt");
    const CruncherConfig config = cruncherConfig(6, 3, 4, OptimizerKind::adam);
    auto saved = backend().makeCruncherTrainer(config);
    for (int s = 0; s < 5; ++s)
        saved->step();
    saved->saveCheckpoint(path.toStdString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray bytes = file.readAll();
    file.close();
    // The layout: 64-byte header (magic, 5 int64, payload bytes, CRC-32, 0), then the payload: 342 floats,
    // an int64 length, then that many bytes of generator text.
    qint64 length = 0;
    std::memcpy(&length, bytes.constData() + 64 + std::ptrdiff_t{4} * 342, sizeof length);
    QCOMPARE(bytes.size(), 64 + 4 * 342 + 8 + length);
    quint64 payloadBytes = 0;
    std::memcpy(&payloadBytes, bytes.constData() + 48, sizeof payloadBytes);
    QCOMPARE(payloadBytes, quint64(bytes.size() - 64));
    if (at >= 0)
        bytes.replace(at, overwrite.size(), overwrite);
    if (reseal) {
        const std::uint32_t crc =
            napkin::crc32(bytes.constData() + 64, static_cast<std::size_t>(bytes.size() - 64));
        bytes.replace(56, sizeof crc, QByteArray(reinterpret_cast<const char*>(&crc), sizeof crc));
    }
    if (keepBytes == -2)
        bytes.chop(1);
    else if (keepBytes >= 0)
        bytes.truncate(keepBytes);
    bytes += append;
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
    file.close();

    // Two twins trained the same two steps; one is asked to load the damaged file, the other is not.
    auto target = backend().makeCruncherTrainer(config);
    auto twin = backend().makeCruncherTrainer(config);
    for (int s = 0; s < 2; ++s) {
        target->step();
        twin->step();
    }
    try {
        target->loadCheckpoint(path.toStdString());
        QFAIL("a damaged checkpoint was accepted");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
        QVERIFY2(QString::fromStdString(e.what()).contains(path), e.what());
    }
    QCOMPARE(target->stepsDone(), 2L);
    QCOMPARE(target->parameters(), twin->parameters());
    for (int s = 0; s < 3; ++s)
        QCOMPARE(target->step(), twin->step()); // same optimizer state and data stream, bit for bit
    std::remove(path.toStdString().c_str());
}

void TestCruncherTraining::seedsAreDeterministicAndSeparate() {
    CruncherConfig c = cruncherConfig(5, 2, 3, OptimizerKind::sgd);
    auto losses = [](const CruncherConfig& config) {
        auto t = backend().makeCruncherTrainer(config);
        std::vector<double> l;
        for (int s = 0; s < 4; ++s)
            l.push_back(t->step());
        return std::make_pair(l, t->parameters());
    };
    const auto base = losses(c);
    QCOMPARE(losses(c), base);
    CruncherConfig otherData = c;
    otherData.seedData = 99;
    const auto d = losses(otherData);
    QVERIFY(d.first != base.first);
    CruncherConfig otherInit = c;
    otherInit.seedInit = 99;
    auto fresh = backend().makeCruncherTrainer(otherInit);
    auto baseFresh = backend().makeCruncherTrainer(c);
    QVERIFY(fresh->parameters() != baseFresh->parameters());
    CruncherConfig sameInitOtherData = c;
    sameInitOtherData.seedData = 99;
    QCOMPARE(backend().makeCruncherTrainer(sameInitOtherData)->parameters(), baseFresh->parameters());
}

void TestCruncherTraining::countedFlops_data() {
    QTest::addColumn<long>("d");
    QTest::addColumn<long>("l");
    QTest::addColumn<long>("b");
    QTest::addColumn<double>("sixBP");
    QTest::addColumn<double>("counted");
    // The lecture's 6·B·P = 6·2·36 = 432; the first layer's dX (2·B·D² = 64) is never computed.
    QTest::newRow("lecture D=4 L=2 B=2") << 4L << 2L << 2L << 432.0 << 368.0;
    QTest::newRow("D=8 L=3 B=5") << 8L << 3L << 5L << 6000.0 << 5360.0;
    QTest::newRow("D=1024 L=4 B=256") << 1024L << 4L << 256L << 6444023808.0 << 5907152896.0;
}

void TestCruncherTraining::countedFlops() {
    QFETCH(long, d);
    QFETCH(long, l);
    QFETCH(long, b);
    QFETCH(double, sixBP);
    QFETCH(double, counted);
    const CruncherConfig c = cruncherConfig(d, l, b, OptimizerKind::sgd);
    QCOMPARE(6.0 * static_cast<double>(b) * cruncherParameters(c), sixBP);
    QCOMPARE(cruncherCountedFlopsPerStep(c), counted);
}

QTEST_APPLESS_MAIN(TestCruncherTraining)
#include "tst_cruncher_training.moc"
