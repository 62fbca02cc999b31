// SPDX-License-Identifier: GPL-3.0-or-later
// The definitions every page and command share, checked over thousands of random valid settings
// (tests/support/random_accounting_inputs.h, seeded): the ledger's parts sum to its total; the peak is
// the largest event of the step's timeline; "fits" is the peak against the capacity; the largest batch
// fits and one more does not, and so does the largest sequence (one more valid length, a multiple of cp,
// does not); recompute leaves the time at a given MFU unchanged and raises the HFU.
#include "engine/accounting/accounting.h"
#include "engine/accounting/max_sequence.h"
#include "engine/accounting/memory_timeline.h"
#include "tests/support/random_accounting_inputs.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace napkin;

namespace {

constexpr int kCases = 3000;

const GpuSpec& gpuOf(const AccountingInput& in) {
    return *GpuCatalog::builtIn().find(in.gpu);
}

QByteArray caseName(int i, const AccountingInput& in) {
    return QByteArray("case ") + QByteArray::number(i) + " (" + modelKindName(in.model.kind).data() + ")";
}

} // namespace

class TestAccountingInvariants : public QObject {
    Q_OBJECT
private slots:
    void ledgerPeakAndFits();
    void maxBatchIsTheLargestThatFits();
    void maxSequenceIsTheLargestThatFits();
    void recomputeKeepsTimeAndRaisesHfu();
};

void TestAccountingInvariants::ledgerPeakAndFits() {
    test::RandomAccountingInputs inputs(25);
    for (int i = 0; i < kCases; ++i) {
        const AccountingInput in = inputs.next();
        const AccountingResult r = accountWithoutAdvice(in, gpuOf(in));
        const QByteArray name = caseName(i, in);
        const MemoryPerGpu& m = r.memory;
        QVERIFY2(m.total.value == m.parameters.value + m.gradients.value + m.masterWeights.value +
                                      m.optimizerState.value + m.activations.value,
                 name);
        const MemoryTimeline t = memoryTimeline(in, r);
        double largest = 0;
        for (const TimelineEvent& e : t.events)
            largest = std::max(largest, e.bytes.total());
        QVERIFY2(r.peakMemory.value == largest, name);
        QVERIFY2(r.peakMemory.value >=
                     m.parameters.value + m.gradients.value + m.masterWeights.value + m.optimizerState.value,
                 name); // the optimizer step holds every model state
        QVERIFY2(r.fits == (r.predictedBytes.value <= r.usableBytes.value), name);
        QVERIFY2(r.predictedBytes.value == r.peakMemory.value + r.overheads.totalBytes, name);
        if (!r.peakFromTimeline)
            QVERIFY2(r.peakMemory.value == m.total.value, name);
    }
}

void TestAccountingInvariants::maxBatchIsTheLargestThatFits() {
    test::RandomAccountingInputs inputs(26);
    for (int i = 0; i < kCases; ++i) {
        AccountingInput in = inputs.next();
        const AccountingResult r = accountWithoutAdvice(in, gpuOf(in));
        const QByteArray name = caseName(i, in);
        if (!r.maxBatch) {
            QVERIFY2(!r.activationsModelled, name);
            continue;
        }
        const double best = r.maxBatch->value;
        if (best >= 1) {
            in.batch = best;
            QVERIFY2(accountStep(in, gpuOf(in)).fits, name);
        }
        if (best < 1e9) {
            in.batch = best + 1;
            QVERIFY2(!accountStep(in, gpuOf(in)).fits, name);
        }
    }
}

void TestAccountingInvariants::maxSequenceIsTheLargestThatFits() {
    test::RandomAccountingInputs inputs(28);
    int searched = 0;
    for (int i = 0; i < kCases; ++i) {
        AccountingInput in = inputs.next();
        const AccountingResult r = accountWithoutAdvice(in, gpuOf(in));
        const QByteArray name = caseName(i, in);
        if (!r.maxSequence) {
            QVERIFY2(!r.activationsModelled || in.model.kind != ModelKind::transformer, name);
            continue;
        }
        ++searched;
        const double best = r.maxSequence->value, step = in.parallel.cp;
        const double cap = in.model.position == PositionKind::learned ? in.model.seq : kMaxSequenceSearched;
        QVERIFY2(std::fmod(best, step) == 0 && best <= cap, name);
        if (best >= step) {
            in.model.seq = best;
            QVERIFY2(validate(in).ok(), name);
            QVERIFY2(accountStep(in, gpuOf(in)).fits, name);
        }
        if (best + step <= cap) {
            in.model.seq = best + step;
            QVERIFY2(!accountStep(in, gpuOf(in)).fits, name);
        }
    }
    QVERIFY(searched > 500);
}

void TestAccountingInvariants::recomputeKeepsTimeAndRaisesHfu() {
    test::RandomAccountingInputs inputs(27);
    int compared = 0;
    for (int i = 0; i < kCases; ++i) {
        AccountingInput in = inputs.next();
        in.recompute = Recompute::none;
        if (in.model.kind != ModelKind::transformer || !in.trainingTokens || !validate(in).ok())
            continue;
        const AccountingResult none = accountStep(in, gpuOf(in));
        // Without checkpointing the hardware runs the model's FLOPs, but for flash attention's backward,
        // which recomputes QKᵀ (flop_count.h).
        if (in.model.attentionImpl == AttentionImpl::eager)
            QCOMPARE(none.hfu.value, in.mfu);
        else
            QVERIFY(none.hfu.value > in.mfu);
        for (Recompute mode : {Recompute::selective, Recompute::full}) {
            in.recompute = mode;
            if (!validate(in).ok())
                continue;
            const AccountingResult with = accountStep(in, gpuOf(in));
            const QByteArray name = caseName(i, in) + " " + recomputeName(mode).data();
            // At a given MFU the compute time stays; an offloaded step bound by its host link is another
            // matter (recompute streams host-held weights once more).
            const auto linkBound = [](const AccountingResult& r) {
                return r.hostLinkSecondsPerStep && r.hostLinkSecondsPerStep->value > r.computeSecondsPerStep->value;
            };
            if (!linkBound(with) && !linkBound(none))
                QVERIFY2(with.trainingSeconds->value == none.trainingSeconds->value, name);
            QVERIFY2(with.trainingFlops->value == none.trainingFlops->value, name);
            QVERIFY2(with.hfu.value >= none.hfu.value, name);
            QVERIFY2(with.trainingHardwareFlops->value >= with.trainingFlops->value, name);
            if (mode == Recompute::full)
                QVERIFY2(with.hfu.value > none.hfu.value, name); // the layers' forward once more
            ++compared;
        }
    }
    QVERIFY(compared > 500);
}

QTEST_APPLESS_MAIN(TestAccountingInvariants)
#include "tst_accounting_invariants.moc"
