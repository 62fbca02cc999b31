// SPDX-License-Identifier: GPL-3.0-or-later
// The largest batch, the largest sequence and the fit advice judged as the fit verdict is
// (engine/allocator/fit_searches.h): on the simulated reserved peak where the step is modelled event by
// event. Each answer is checked against the verdict itself (judgeFit on a full account() of the answer and
// of the next value: the first fits, the second does not), and the batch against a plain scan from batch 1
// where the scan is short; the hand-worked row is tst_step_reserved's Cruncher (every request a 512-B block
// of one kSmallBuffer segment, 2,097,152 B, c10/cuda/CUDACachingAllocator.cpp).
#include "engine/accounting/setup_presets.h"
#include "engine/allocator/fit_searches.h"
#include "engine/numerics/quantity_format.h"
#include "engine/numerics/work_counts.h"
#include "tests/support/accounting_inputs.h"

#include <QTest>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::AccountingInput)
Q_DECLARE_METATYPE(napkin::GpuSpec)

namespace {

/// No overhead line counted: what is judged is the step alone (allocated peak, or reserved peak).
AccountingInput withoutOverheads(AccountingInput in) {
    in.overheads.cudaContext = in.overheads.libraryWorkspaces = in.overheads.allocatorRounding = false;
    in.overheads.ncclBuffers = in.overheads.fp8Copies = false;
    return in;
}

/// The H100 SXM's entry with `bytes` of memory, datasheet and driver-reported alike.
GpuSpec gpuWithMemory(double bytes) {
    GpuSpec gpu = *GpuCatalog::builtIn().find("H100-SXM");
    gpu.memoryBytes = bytes;
    gpu.driverMemoryBytes = bytes;
    return gpu;
}

/// A small GPT-2-style model (d 256, 2 layers, 4 heads, V 1000, learned positions up to `seq`) under
/// pytorch-eager: its step is followed op by op.
AccountingInput smallGpt(double seq, double batch) {
    AccountingInput in = withoutOverheads(gptInput(256, 2, 4, 1000, seq, batch));
    in.model.activationsOf = ActivationProfile::pytorchEager;
    return in;
}

/// The verdict as the page and `account --json` give it: judgeFit on a full account() of `in`.
bool verdictFits(const AccountingInput& in, const GpuSpec& gpu) {
    const AccountingResult r = account(in, gpu);
    return judgeFit(in, r, AllocatorConfig{}).fits;
}

} // namespace

class TestFitSearches : public QObject {
    Q_OBJECT
private slots:
    void searchesJudgeAsTheVerdict_data() {
        QTest::addColumn<AccountingInput>("input");
        QTest::addColumn<GpuSpec>("gpu");
        QTest::addColumn<double>("maxBatch"); // -1: checked against the scan and the verdict only
        QTest::addColumn<bool>("scan");       // the batch also found by a plain scan from 1
        // Hand-worked: the allocated peak fits (464 B ≤ 1 MiB), but the first 512-B request already takes a
        // 2-MiB segment, so no batch fits on reserved.
        QTest::newRow("Cruncher, 1 MiB: no batch fits on reserved")
            << withoutOverheads(cruncherInput(4, 2, 2, OptimizerKind::adagrad)) << gpuWithMemory(1048576)
            << 0.0 << true;
        QTest::newRow("Cruncher D 64, 2 MiB")
            << withoutOverheads(cruncherInput(64, 2, 2, OptimizerKind::adagrad)) << gpuWithMemory(2097152)
            << -1.0 << true;
        QTest::newRow("Cruncher D 64, 6 MiB")
            << withoutOverheads(cruncherInput(64, 2, 2, OptimizerKind::adagrad)) << gpuWithMemory(6291456)
            << -1.0 << true;
        QTest::newRow("small GPT, eager, 64 MB") << smallGpt(1024, 1) << gpuWithMemory(64e6) << -1.0 << true;
        QTest::newRow("small GPT, eager, 1 GB") << smallGpt(4096, 4) << gpuWithMemory(1e9) << -1.0 << false;
        // The page's tick: GPT-3 175B on 1024 H100s, ZeRO-3, full recompute (1,179 allocator events a step).
        const AccountingInput gpt3 = findSetupPreset("gpt3-175b")->input;
        QTest::newRow("gpt3-175b") << gpt3 << *GpuCatalog::builtIn().find(gpt3.gpu) << -1.0 << false;
    }
    void searchesJudgeAsTheVerdict() {
        QFETCH(AccountingInput, input);
        QFETCH(GpuSpec, gpu);
        QFETCH(double, maxBatch);
        QFETCH(bool, scan);
        QVERIFY2(validate(input).ok(), validate(input).message.c_str());
        const AccountingResult r = account(input, gpu);
        const FitVerdict verdict = judgeFit(input, r, AllocatorConfig{});
        QCOMPARE(verdict.basis, FitBasis::reserved);
        QCOMPARE(fitsAsJudged(input, gpu, AllocatorConfig{}), verdict.fits); // the probe is the verdict
        const WorkCounter counter;
        const FitSearches s = searchFits(input, gpu, r, verdict);
        const WorkCounts w = counter.counted();
        QCOMPARE(s.replays, w.stepReplays);
        QCOMPARE(s.probes, w.fastPeaks);
        QVERIFY(s.replays <= s.probes);
        QCOMPARE(s.basis, FitBasis::reserved);
        QVERIFY(s.notOnReserved.empty());
        QVERIFY(s.maxBatch);
        const double best = s.maxBatch->value;
        qInfo("largest batch: %.0f on reserved, %.0f on allocated; %lld replays; %s", best, r.maxBatch->value,
              static_cast<long long>(w.stepReplays), s.maxBatch->formula.c_str());
        if (maxBatch >= 0)
            QCOMPARE(best, maxBatch);
        if (best >= 1) { // the answer fits, one more does not
            AccountingInput at = input;
            at.batch = best;
            QVERIFY(verdictFits(at, gpu));
            QVERIFY2(s.maxBatch->formula.starts_with("largest batch whose step fits on reserved"),
                     s.maxBatch->formula.c_str());
        } else {
            QVERIFY2(s.maxBatch->formula.starts_with("even batch 1 needs"), s.maxBatch->formula.c_str());
        }
        AccountingInput over = input;
        over.batch = best + 1;
        QVERIFY(!verdictFits(over, gpu));
        if (scan) { // the first batch that does not fit, counting up from 1
            double b = 1;
            for (AccountingInput c = input; b <= 4096; ++b) {
                c.batch = b;
                if (!verdictFits(c, gpu))
                    break;
            }
            QCOMPARE(best, b - 1);
        }
        // the fit advice says what fits at batch 1 where nothing does on reserved, and nothing otherwise
        QCOMPARE(s.fitAdvice.empty(), best >= 1);
        if (input.model.kind == ModelKind::transformer) { // the sequence: S fits, S + 1 does not
            QVERIFY(s.maxSequence);
            const double seq = s.maxSequence->value;
            QVERIFY2(seq >= 1, s.maxSequence->formula.c_str());
            AccountingInput at = input;
            at.model.seq = seq;
            QVERIFY(verdictFits(at, gpu));
            if (seq < input.model.seq) {
                at.model.seq = seq + 1;
                QVERIFY(!verdictFits(at, gpu));
            } else { // learned positions stop at the table's length
                QCOMPARE(seq, input.model.seq);
                QVERIFY2(
                    s.maxSequence->formula.ends_with("the search stops at " + formatExact(seq) + " tokens"),
                    s.maxSequence->formula.c_str());
            }
            qInfo("largest sequence: %.0f on reserved, %.0f on allocated; %s", seq, r.maxSequence->value,
                  s.maxSequence->formula.c_str());
        }
    }

    // The hand-worked Cruncher: batch 1 fits on allocated (no fit advice from account()), not on reserved,
    // and no layout fits either (a single 512-B block takes a 2-MiB segment): the advice says so.
    void fitAdviceOnReserved() {
        const AccountingInput in = withoutOverheads(cruncherInput(4, 2, 2, OptimizerKind::adagrad));
        const GpuSpec gpu = gpuWithMemory(1048576);
        const AccountingResult r = account(in, gpu);
        QVERIFY(r.fitAdvice.empty());
        const FitSearches s = searchFits(in, gpu, r, judgeFit(in, r, AllocatorConfig{}));
        QCOMPARE(QString::fromStdString(s.fitAdvice), QStringLiteral("even batch 1 does not fit on 1 GPUs"));
    }

    // Where the verdict is on allocated the searches are account()'s own, with no replay.
    void onAllocatedTheyAreAccounts_data() {
        QTest::addColumn<QString>("preset");
        QTest::newRow("phases only") << "70b-15t-1024-h100";
        QTest::newRow("datasheet basis") << "largest-8-h100";
    }
    void onAllocatedTheyAreAccounts() {
        QFETCH(QString, preset);
        const AccountingInput in = findSetupPreset(preset.toStdString())->input;
        const GpuSpec gpu = *GpuCatalog::builtIn().find(in.gpu);
        const AccountingResult r = account(in, gpu);
        const FitVerdict verdict = judgeFit(in, r, AllocatorConfig{});
        QCOMPARE(verdict.basis, FitBasis::allocated);
        const WorkCounter counter;
        const FitSearches s = searchFits(in, gpu, r, verdict);
        QCOMPARE(counter.counted().stepReplays, 0);
        QCOMPARE(counter.counted().fastPeaks, 0);
        QCOMPARE(s.replays, 0);
        QCOMPARE(s.basis, FitBasis::allocated);
        QCOMPARE(s.notOnReserved, verdict.notOnReserved);
        QVERIFY(!s.notOnReserved.empty());
        QCOMPARE(s.maxBatch.has_value(), r.maxBatch.has_value());
        if (s.maxBatch)
            QCOMPARE(s.maxBatch->value, r.maxBatch->value);
        QCOMPARE(s.fitAdvice, r.fitAdvice);
    }
};

QTEST_APPLESS_MAIN(TestFitSearches)
#include "tst_fit_searches.moc"
