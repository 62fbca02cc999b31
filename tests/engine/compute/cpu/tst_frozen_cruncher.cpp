// SPDX-License-Identifier: GPL-3.0-or-later
// The Cruncher with frozen layers (engine/accounting/frozen_layers.h), trained on the CPU: the trainers'
// ledgers equal the predicted timeline at every event, the totals are the hand-derived ones, frozen
// weights never move while trained ones do, the FLOPs are the GEMMs issued, checkpoints are refused.
#include "engine/accounting/frozen_layers.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/training_run.h"
#include "engine/compute/cpu/cpu_cruncher_trainer.h"
#include "engine/compute/cruncher_checkpoint.h"
#include "engine/compute/memory_timeline_recorder.h"
#include "tests/support/cruncher_configs.h"

#include <QtTest>

#include <memory>
#include <set>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::OptimizerKind)
Q_DECLARE_METATYPE(std::vector<long>)
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(napkin::CruncherConfig)

namespace {

CruncherConfig frozenConfig(long d, long l, long b, OptimizerKind k, std::vector<long> frozen,
                            PrecisionRecipe precision = PrecisionRecipe::fp32) {
    CruncherConfig c = cruncherConfig(d, l, b, k);
    c.frozenLayers = std::move(frozen);
    c.precision = precision;
    return c;
}

MemoryTimeline predicted(const CruncherConfig& c, TrainingStep step) {
    return memoryTimeline(cruncherAccountingInput(c), predictedCruncherAccounting(c), step);
}

// Every CPU trainer this build has (Eigen always, oneDNN where found) that runs the configuration's
// precision (Eigen runs fp32 only), by name.
std::vector<std::pair<QByteArray, std::unique_ptr<CruncherTrainer>>> trainersFor(const CruncherConfig& c) {
    std::vector<std::pair<QByteArray, std::unique_ptr<CruncherTrainer>>> all;
    for (const BackendEntry& entry : listCpuBackends()) {
        if (!entry.available)
            continue;
        BackendOptions options;
        options.cpuThreads = 1;
        options.cpuMeasurePeak = false;
        options.cpuBackend = cpuBackendKindFromName(entry.name);
        std::unique_ptr<BenchmarkBackend> backend = makeBackend("cpu", options);
        if (backend && backend->unsupportedPrecisionReason(c.precision).empty())
            all.emplace_back(entry.name.c_str(), backend->makeCruncherTrainer(c));
    }
    return all;
}

QByteArray describe(const StepBytes& b) {
    return QByteArray::number(b.parameters) + " + " + QByteArray::number(b.gradients) + " + " +
           QByteArray::number(b.masterWeights) + " + " + QByteArray::number(b.optimizerState) + " + " +
           QByteArray::number(b.activations) + " + " + QByteArray::number(b.temporary);
}

// Event by event, every component to the bit.
void compareEvents(const QByteArray& who, const std::vector<TimelineEvent>& measured,
                   const MemoryTimeline& expected) {
    QCOMPARE(measured.size(), expected.events.size());
    for (std::size_t i = 0; i < measured.size(); ++i) {
        const QByteArray name = stepEventName(expected.events[i].event).c_str();
        QVERIFY2(measured[i].event == expected.events[i].event,
                 who + ": event " + QByteArray::number(static_cast<int>(i)) + ": measured " +
                     stepEventName(measured[i].event).c_str() + ", predicted " + name);
        QVERIFY2(measured[i].bytes == expected.events[i].bytes,
                 who + ": " + name + ": measured " + describe(measured[i].bytes) + ", predicted " +
                     describe(expected.events[i].bytes));
    }
}

} // namespace

class TestFrozenCruncher : public QObject {
    Q_OBJECT
private slots:
    void handDerived_data();
    void handDerived();
    void measuredIsPredicted_data();
    void measuredIsPredicted();
    void frozenWeightsStay_data();
    void frozenWeightsStay();
    void flopsAreTheGemmsIssued_data();
    void flopsAreTheGemmsIssued();
    void checkpointsAreRefused();
};

// D = 4, L = 3, B = 2, fp32, a steady step. Bytes: a layer's weights D² × 4 = 64, the head's D × 4 = 16,
// so P = 3·64 + 16 = 208; an activation or dL/dh B·D × 4 = 32; y and dL/dy B × 4 = 8 each. T, the
// trained bytes, = 64 per trained layer + 16 (the head always trains); gradients reach T, the state is
// k·T (sgd k = 0, adagrad 1, adam 2), so each step starts at S = 208 + k·T. h_l is kept (activations)
// when the layer it feeds trains (h_3 feeds the head: always), else it is a temporary freed after the
// next forward. Backward stops at the lowest trained layer, which makes no dL/dx. Offsets from S:
//   freeze 1 (T 144, lowest 2): fwd 1 +32 (h1 kept), fwd 2 +64, fwd 3 +96, fwd head +104 (y), loss +112
//     (dy; then y freed), head +152 (dw 16, dh3 32; then dy, h3 freed: +112), bwd 3 +208 (dW3 64, dh2 32;
//     then dh3, h2 freed: +144), bwd 2 +208 (dW2 64, no dh1; then dh2, h1 freed: +144), optimizer +144.
//   freeze 3 (T 144, lowest 1): fwd 1 +32 (h1 kept), fwd 2 +64 (h2 a temporary), fwd 3 +96 (h3; then h2
//     freed: +64), head fwd +72, loss +80, bwd head +120 (then +80), bwd 3 +112 (frozen: dh2 alone; then
//     dh3 freed: +80), bwd 2 +176 (dW2, dh1; then dh2, h1 freed: +112), bwd 1 +176 (dW1; then dh1 freed:
//     +144), optimizer +144.
//   freeze 2 (T 144, lowest 1): fwd 1 +32 (h1 a temporary), fwd 2 +64 (h2 kept; then h1 freed: +32),
//     fwd 3 +64, head fwd +72, loss +80, bwd head +120 (then +80), bwd 3 +176 (dW3, dh2; then dh3, h2
//     freed: +112), bwd 2 +144 (frozen: dh1; then dh2 freed: +112), bwd 1 +176 (dW1), optimizer +144.
//   freeze 1,3 (T 80, lowest 2): fwd 1 +32 (h1 kept), fwd 2 +64 (h2 a temporary), fwd 3 +96 (then +64),
//     head fwd +72, loss +80, bwd head +120 (then +80), bwd 3 +112 (frozen: dh2; then +80), bwd 2 +144
//     (dW2, no dh1), optimizer +80.
//   freeze 1-3 (T 16, the head alone): fwd 1 +32, fwd 2 +64 (then h1 freed: +32), fwd 3 +64 (h3 kept;
//     then h2 freed: +32), head fwd +40, loss +48, bwd head +56 (dw alone: no dh3), optimizer +16.
// zero_grad returns to S.
void TestFrozenCruncher::handDerived_data() {
    QTest::addColumn<std::vector<long>>("frozen");
    QTest::addColumn<OptimizerKind>("optimizer");
    QTest::addColumn<double>("start");
    QTest::addColumn<std::vector<double>>("offsets");
    struct Pattern {
        const char* name;
        std::vector<long> frozen;
        double trained;
        std::vector<double> offsets;
    };
    const std::vector<Pattern> patterns{
        {"first", {1}, 144, {0, 32, 64, 96, 104, 112, 152, 208, 208, 144, 0}},
        {"last", {3}, 144, {0, 32, 64, 96, 72, 80, 120, 112, 176, 176, 144, 0}},
        {"middle", {2}, 144, {0, 32, 64, 64, 72, 80, 120, 176, 144, 176, 144, 0}},
        {"all but one", {1, 3}, 80, {0, 32, 64, 96, 72, 80, 120, 112, 144, 80, 0}},
        {"all", {1, 2, 3}, 16, {0, 32, 64, 64, 40, 48, 56, 16, 0}},
    };
    const std::pair<OptimizerKind, double> optimizers[] = {
        {OptimizerKind::sgd, 0}, {OptimizerKind::adagrad, 1}, {OptimizerKind::adam, 2}};
    for (const Pattern& p : patterns)
        for (const auto& [kind, states] : optimizers)
            QTest::addRow("%s frozen, %s", p.name, optimizerName(kind).data())
                << p.frozen << kind << 208 + states * p.trained << p.offsets;
}

void TestFrozenCruncher::handDerived() {
    QFETCH(std::vector<long>, frozen);
    QFETCH(OptimizerKind, optimizer);
    QFETCH(double, start);
    QFETCH(std::vector<double>, offsets);
    const CruncherConfig config = frozenConfig(4, 3, 2, optimizer, frozen);
    std::vector<double> expected;
    expected.reserve(offsets.size());
    for (double o : offsets)
        expected.push_back(start + o);
    std::vector<double> totals;
    for (const TimelineEvent& e : predicted(config, TrainingStep::steady).events)
        totals.push_back(e.bytes.total());
    QCOMPARE(totals, expected);
    auto trainers = trainersFor(config);
    QVERIFY(!trainers.empty()); // Eigen at least
    for (auto& [name, trainer] : trainers) {
        trainer->step();
        trainer->step();
        totals.clear();
        for (const TimelineEvent& e : trainer->measuredTimeline())
            totals.push_back(e.bytes.total());
        QVERIFY2(totals == expected, name);
    }
}

void TestFrozenCruncher::measuredIsPredicted_data() {
    QTest::addColumn<CruncherConfig>("config");
    const long sizes[][3] = {{4, 3, 2}, {8, 4, 5}, {33, 5, 3}, {16, 2, 1}};
    const std::vector<std::vector<long>> patterns{{1}, {4, 5}, {2, 3}, {1, 2, 4, 5}, {2}, {1, 3}};
    for (OptimizerKind k : allOptimizers())
        for (const auto& s : sizes) {
            std::set<std::vector<long>> seen; // the patterns cut to L layers, each once
            for (const std::vector<long>& f : patterns) {
                std::vector<long> frozen;
                for (long l : f)
                    if (l <= s[1])
                        frozen.push_back(l);
                if (!seen.insert(frozen).second)
                    continue;
                for (PrecisionRecipe p : {PrecisionRecipe::fp32, PrecisionRecipe::mixedBf16})
                    QTest::addRow("%s D=%ld L=%ld B=%ld frozen %s %s", optimizerName(k).data(), s[0], s[1],
                                  s[2], frozenLayersText(frozen).c_str(), precisionRecipeName(p).data())
                        << frozenConfig(s[0], s[1], s[2], k, frozen, p);
            }
        }
}

// The first step (its state made at the update), then steady steps: every event, every component.
void TestFrozenCruncher::measuredIsPredicted() {
    QFETCH(CruncherConfig, config);
    const MemoryTimeline first = predicted(config, TrainingStep::first);
    const MemoryTimeline steady = predicted(config, TrainingStep::steady);
    for (auto& [name, trainer] : trainersFor(config)) {
        trainer->step();
        compareEvents(name, trainer->measuredTimeline(), first);
        if (QTest::currentTestFailed())
            return;
        for (int s = 0; s < 2; ++s) {
            trainer->step();
            compareEvents(name, trainer->measuredTimeline(), steady);
            if (QTest::currentTestFailed())
                return;
        }
        QCOMPARE(trainer->ledger().peakStepBytes(), steady.peakBytes);
        const AccountingResult r = predictedCruncherAccounting(config);
        QCOMPARE(trainer->ledger().peakBytes(MemoryTag::activations), r.memory.activations.value);
        QCOMPARE(trainer->ledger().peakBytes(MemoryTag::gradients), r.memory.gradients.value);
        QCOMPARE(trainer->ledger().peakBytes(MemoryTag::optimizerState), r.memory.optimizerState.value);
        QCOMPARE(trainer->ledger().peakBytes(MemoryTag::masterWeights), r.memory.masterWeights.value);
    }
}

void TestFrozenCruncher::frozenWeightsStay_data() {
    QTest::addColumn<CruncherConfig>("config");
    for (OptimizerKind k : {OptimizerKind::sgd, OptimizerKind::adagrad, OptimizerKind::adam})
        for (PrecisionRecipe p : {PrecisionRecipe::fp32, PrecisionRecipe::mixedBf16})
            for (const std::vector<long>& f :
                 std::vector<std::vector<long>>{{1}, {3}, {2}, {1, 3}, {1, 2, 3}})
                QTest::addRow("%s %s frozen %s", optimizerName(k).data(), precisionRecipeName(p).data(),
                              frozenLayersText(f).c_str())
                    << frozenConfig(8, 3, 4, k, f, p);
}

// Three steps: each frozen layer's D² weights are bit for bit the initial ones, each trained layer's and
// the head's have moved.
void TestFrozenCruncher::frozenWeightsStay() {
    QFETCH(CruncherConfig, config);
    const auto d2 = static_cast<std::size_t>(config.dim * config.dim);
    for (auto& [name, trainer] : trainersFor(config)) {
        const std::vector<float> before = trainer->parameters();
        for (int s = 0; s < 3; ++s)
            trainer->step();
        const std::vector<float> after = trainer->parameters();
        QCOMPARE(after.size(), before.size());
        for (long l = 1; l <= config.layers + 1; ++l) { // l = L + 1: the head
            const auto from = static_cast<std::size_t>(l - 1) * d2;
            const std::size_t count = l <= config.layers ? d2 : static_cast<std::size_t>(config.dim);
            const bool same = std::equal(before.begin() + static_cast<long>(from),
                                         before.begin() + static_cast<long>(from + count),
                                         after.begin() + static_cast<long>(from));
            const bool frozen = l <= config.layers && !layerTrains(config.frozenLayers, l);
            QVERIFY2(same == frozen, name + " layer " + QByteArray::number(static_cast<int>(l)) +
                                         (frozen ? " is frozen but moved" : " trains but did not move"));
        }
    }
}

// D = 4, L = 3, B = 2 (P = 52): forward 2·B·P = 208; backward GEMMs of 2·B·D² = 64 (a layer's dW or
// dL/dx) and 2·B·D = 16 (the head's dw, dL/dh_3). None frozen: 208 + 16 + 16 + 3·64 + 2·64 = 560 =
// 6·B·P − 2·B·D². 1: head 32 + layer 3 128 + layer 2 64. 3 (or 2): head 32 + 64 + 128 + 64. 1,3: head
// 32 + 64 (dL/dh_2 through layer 3) + 64 (dW_2). 1-3: the head's dw alone.
void TestFrozenCruncher::flopsAreTheGemmsIssued_data() {
    QTest::addColumn<std::vector<long>>("frozen");
    QTest::addColumn<double>("flops");
    QTest::newRow("none") << std::vector<long>{} << 560.0;
    QTest::newRow("first") << std::vector<long>{1} << 208.0 + 32 + 128 + 64;
    QTest::newRow("last") << std::vector<long>{3} << 208.0 + 32 + 64 + 128 + 64;
    QTest::newRow("middle") << std::vector<long>{2} << 208.0 + 32 + 128 + 64 + 64;
    QTest::newRow("all but one") << std::vector<long>{1, 3} << 208.0 + 32 + 64 + 64;
    QTest::newRow("all") << std::vector<long>{1, 2, 3} << 208.0 + 16;
}

void TestFrozenCruncher::flopsAreTheGemmsIssued() {
    QFETCH(std::vector<long>, frozen);
    QFETCH(double, flops);
    QCOMPARE(cruncherCountedFlopsPerStep(frozenConfig(4, 3, 2, OptimizerKind::sgd, frozen)), flops);
}

// The checkpoint format records no frozen set (cruncher_checkpoint.h): saving, resuming and a run asked
// for either are refused, before any step.
void TestFrozenCruncher::checkpointsAreRefused() {
    const CruncherConfig config = frozenConfig(4, 2, 2, OptimizerKind::adam, {1});
    QVERIFY(!checkpointRefusal(config).empty());
    QVERIFY(checkpointRefusal(frozenConfig(4, 2, 2, OptimizerKind::adam, {})).empty());
    const std::string path = QDir::temp().filePath("napkin_tst_frozen_cruncher.ckpt").toStdString();
    for (auto& [name, trainer] : trainersFor(config)) {
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, trainer->saveCheckpoint(path));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, trainer->loadCheckpoint(path));
        QCOMPARE(trainer->stepsDone(), 0L);
    }
    QVERIFY(!QFile::exists(QString::fromStdString(path)));
    std::unique_ptr<BenchmarkBackend> backend = makeBackend("cpu");
    QVERIFY(backend);
    TrainingRunRequest request;
    request.config = config;
    request.steps = 1;
    request.saveTo = path;
    try {
        runCruncherTraining(*backend, request);
        QFAIL("a frozen run with --save was not refused");
    } catch (const TrainingRunRefused& e) {
        QCOMPARE(e.cause(), TrainingRunRefused::Cause::save);
    }
    request.saveTo.clear();
    request.resumeFrom = path;
    try {
        runCruncherTraining(*backend, request);
        QFAIL("a frozen run with --resume was not refused");
    } catch (const TrainingRunRefused& e) {
        QCOMPARE(e.cause(), TrainingRunRefused::Cause::resume);
    }
}

QTEST_APPLESS_MAIN(TestFrozenCruncher)
#include "tst_frozen_cruncher.moc"
