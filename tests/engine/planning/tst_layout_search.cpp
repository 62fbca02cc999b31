// SPDX-License-Identifier: GPL-3.0-or-later
// The layout search (engine/planning/layout_search.h): its winner is the best of a brute force over every
// candidate, written here apart from the search's own enumeration; pruning never changes the answer; the
// bound it prunes by never exceeds a predicted step; its work is counted, not timed; a published run's
// layout fits and is placed in the ranking.
#include "engine/planning/layout_search.h"
#include "engine/planning/plan_benchmark.h"
#include "engine/planning/plan_explanation.h"
#include "engine/planning/step_time_bound.h"

#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/numerics/work_counts.h"
#include "engine/steptime/published_profiles.h"
#include "engine/steptime/step_time_summary.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

using namespace napkin;

namespace {

const GpuSpec& gpuOf(const AccountingInput& in) {
    return *GpuCatalog::builtIn().find(in.gpu);
}

HardwareProfile published(const AccountingInput& in) {
    return publishedProfile(gpuOf(in)).profile.value_or(HardwareProfile{});
}

ModelSpec model(const QString& id) {
    if (const ModelPreset* preset = findModelPreset(id.toStdString()))
        return preset->model;
    const ZooModel* zoo = findZooModel(id.toStdString());
    if (!zoo)
        qFatal("unknown model %s", qPrintable(id));
    return zooModelConfig(*zoo).config->model;
}

// A base setup: mixed bf16 (the published profiles measure bf16 GEMMs), AdamW, plain data parallelism at
// `global` sequences per step (the layout the user "gave", ranked by the search like any other).
AccountingInput base(const QString& id, const char* gpu, double gpus, double global) {
    AccountingInput in;
    in.model = model(id);
    in.precision = PrecisionRecipe::mixedBf16;
    in.optimizer = OptimizerKind::adamw;
    in.gpu = gpu;
    in.gpus = gpus;
    in.batch = global / gpus;
    return in;
}

PlanOptions options(bool prune, std::size_t top = 5) {
    PlanOptions o;
    o.prune = prune;
    o.top = top;
    return o;
}

// What a brute force finds: the least predicted step, every candidate that reaches it, and how many
// candidates were valid and timed.
struct BruteForce {
    double bestSeconds = std::numeric_limits<double>::infinity();
    std::vector<LayoutChoice> best;
    std::int64_t valid = 0, timed = 0;
};

// The pipeline stagings of one pp, as layout_space.h words them: even (v from 1 to 64; the validation refuses
// what does not divide), and with v 1 the first and/or the last stage a layer fewer than the M between,
// where L + 1 or 2 = pp·M, when that is not the even split itself.
struct BruteStaging {
    double v = 1;
    std::optional<double> first, last;
};

std::vector<BruteStaging> bruteStagings(double layers, double pp) {
    std::vector<BruteStaging> out;
    for (double v = 1; v <= (pp > 1 ? 64 : 1); ++v)
        out.push_back({v, std::nullopt, std::nullopt});
    if (pp < 2)
        return out;
    for (const double first : {0.0, 1.0})
        for (const double last : {0.0, 1.0}) {
            const double M = (layers + first + last) / pp;
            if (first + last == 0 || M != std::floor(M) || M - 1 < 1)
                continue;
            if (M - first == layers / pp && M - last == layers / pp) // every stage L/pp: the even split
                continue;
            BruteStaging s;
            if (first > 0)
                s.first = M - 1;
            if (last > 0)
                s.last = M - 1;
            out.push_back(s);
        }
    return out;
}

// Every candidate of the space layout_space.h describes, enumerated here from its words rather than its
// code, each judged through the public API as `account` judges it (validate, accountStep's fits, then
// predictStepTime with every formula), with no bound and no pruning. Loops run over plain ranges; the
// engine's validation refuses what they overshoot (pp not dividing the layers, v over 64 or not dividing
// L/p, cp on eager attention, sp without tp).
BruteForce bruteForce(const AccountingInput& in, double node) {
    const GpuSpec& gpu = gpuOf(in);
    const HardwareProfile profile = published(in);
    const double gpus = in.gpus;
    const double global = in.batch * in.parallel.microbatches * dataParallelSize(in.parallel, gpus);
    BruteForce out;
    auto judge = [&](const LayoutChoice& c) {
        const AccountingInput candidate = withLayoutChoice(in, c);
        if (!validate(candidate).ok())
            return;
        ++out.valid;
        const AccountingResult r = accountStep(candidate, gpu);
        if (!r.fits)
            return;
        const StepTime t = predictStepTime(candidate, r, profile);
        if (!t.predicted)
            return;
        ++out.timed;
        if (t.seconds < out.bestSeconds) {
            out.bestSeconds = t.seconds;
            out.best.clear();
        }
        if (t.seconds == out.bestSeconds)
            out.best.push_back(c);
    };
    for (double tp = 1; tp <= node; ++tp) {
        if (std::fmod(node, tp) != 0 || std::fmod(gpus, tp) != 0)
            continue;
        for (double pp = 1; pp <= in.model.layers; ++pp)
            for (double cp = 1; tp * pp * cp <= gpus; ++cp) {
                if (std::fmod(gpus, tp * pp * cp) != 0)
                    continue;
                const double dp = gpus / (tp * pp * cp);
                if (std::fmod(global, dp) != 0)
                    continue;
                for (double b = 1; b <= global / dp; ++b) {
                    if (std::fmod(global / dp, b) != 0)
                        continue;
                    for (const BruteStaging& staging : bruteStagings(in.model.layers, pp))
                        for (const AttentionImpl kernel : {AttentionImpl::eager, AttentionImpl::flash})
                            for (const bool sp : {false, true})
                                for (const Recompute r : {Recompute::none, Recompute::selective, Recompute::full})
                                    for (int zero = 0; zero <= 3; ++zero) {
                                        LayoutChoice c;
                                        c.parallel = {tp, pp, cp, 1, sp, global / (dp * b), staging.v};
                                        c.parallel.firstStageLayers = staging.first;
                                        c.parallel.lastStageLayers = staging.last;
                                        c.microBatch = b;
                                        c.recompute = r;
                                        c.zeroStage = zero;
                                        c.attention = kernel;
                                        judge(c);
                                        const double dpcp = dp * cp;
                                        if (zero == 3 && node < dpcp && std::fmod(dpcp, node) == 0) {
                                            c.shardGroup = node; // HSDP, one shard group per node
                                            judge(c);
                                        }
                                    }
                }
            }
    }
    return out;
}

void addSmallSpaces() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("gpus");
    QTest::addColumn<double>("global");
    QTest::newRow("gpt2-small, 8 x H100, 64 sequences") << "gpt2-small" << "H100-SXM" << 8.0 << 64.0;
    QTest::newRow("gpt2-medium, 4 x A100, 16 sequences") << "gpt2-medium" << "A100-SXM" << 4.0 << 16.0;
    QTest::newRow("llama-2-7b, 16 x H100, 32 sequences") << "llama-2-7b" << "H100-SXM" << 16.0 << 32.0;
    // (Llama 2 7B on 64 H100s brute-forced too, but took over QtTest's 300 s per row in the sanitized build
    // on two loaded cores; 16 GPUs already span two nodes.)
}

bool sameTop(const LayoutPlan& a, const LayoutPlan& b) {
    if (a.top.size() != b.top.size())
        return false;
    for (std::size_t i = 0; i < a.top.size(); ++i)
        if (a.top[i].choice != b.top[i].choice || a.top[i].stepTime.seconds != b.top[i].stepTime.seconds)
            return false;
    return true;
}

} // namespace

class TestLayoutSearch : public QObject {
    Q_OBJECT
private slots:
    void winnerIsTheBruteForceBest_data() { addSmallSpaces(); }
    void winnerIsTheBruteForceBest();
    void pruningKeepsTheAnswer_data() { addSmallSpaces(); }
    void pruningKeepsTheAnswer();
    void workIsCountedAndDeterministic();
    void publishedLayoutFitsAndRanks();
    void yourLayoutIsPlacedInTheRanking();
    void runnersUpSayWhyTheyLose();
    void nothingFitsSaysWhyAndWhatCameNearest();
    void emptySpacesSayWhy();
    void progressAndCancel();
    void unevenStagesAreCandidates();
    void unevenStagesWinLlama3sLongStep();
    void unevenStagesLoseWhenTheirBubbleCosts();
};

void TestLayoutSearch::winnerIsTheBruteForceBest() {
    QFETCH(QString, model);
    QFETCH(QString, gpu);
    QFETCH(double, gpus);
    QFETCH(double, global);
    const AccountingInput in = base(model, gpu.toUtf8().constData(), gpus, global);
    const BruteForce brute = bruteForce(in, gpuOf(in).gpuLinkGpus);
    QVERIFY(brute.timed > 0);
    const LayoutPlan plan = planLayouts(in, GpuCatalog::builtIn(), published(in), options(true));
    QVERIFY2(plan.whyNone.empty(), plan.whyNone.c_str());
    QVERIFY(!plan.top.empty());
    QCOMPARE(plan.top.front().stepTime.seconds, brute.bestSeconds);
    QVERIFY(std::find(brute.best.begin(), brute.best.end(), plan.top.front().choice) != brute.best.end());
    // The search's space is the brute force's, candidate for candidate: as many valid and as many timed.
    const LayoutPlan all = planLayouts(in, GpuCatalog::builtIn(), published(in), options(false));
    const PlanCounts& c = all.counts;
    QCOMPARE(c.refusedForMemory + c.notTimed + c.timed, brute.valid);
    QCOMPARE(c.timed, brute.timed);
    QCOMPARE(c.pruned, std::int64_t{0});
}

void TestLayoutSearch::pruningKeepsTheAnswer() {
    QFETCH(QString, model);
    QFETCH(QString, gpu);
    QFETCH(double, gpus);
    QFETCH(double, global);
    const AccountingInput in = base(model, gpu.toUtf8().constData(), gpus, global);
    for (const std::size_t k : {std::size_t{1}, std::size_t{5}}) {
        const LayoutPlan pruned = planLayouts(in, GpuCatalog::builtIn(), published(in), options(true, k));
        const LayoutPlan all = planLayouts(in, GpuCatalog::builtIn(), published(in), options(false, k));
        QVERIFY(sameTop(pruned, all));
        QCOMPARE(pruned.yours.status, all.yours.status);
        // Without pruning your rank is exact; with it, a range that holds the exact rank.
        if (all.yours.layout) {
            QCOMPARE(all.yours.layout->rankAtMost, all.yours.layout->rank);
            QVERIFY(pruned.yours.layout->rank <= all.yours.layout->rank);
            QVERIFY(all.yours.layout->rank <= pruned.yours.layout->rankAtMost);
        }
        // The bound held on every timed candidate (a bound above a step could prune the winner), and
        // pruning skipped work: otherwise this test could not fail.
        QCOMPARE(pruned.counts.boundAboveTime, std::int64_t{0});
        QCOMPARE(all.counts.boundAboveTime, std::int64_t{0});
        QVERIFY(pruned.counts.pruned > 0);
        QVERIFY(pruned.counts.timed < all.counts.timed);
        QCOMPARE(pruned.counts.considered, all.counts.considered);
    }
}

// The search's work, counted (work_counts.h and PlanCounts): the same on every machine, so these budgets
// guard its speed where a timed test could not (`napkin-cli bench plan` times it: docs/benchmarks.md).
// Today's counts are in the comments; the budgets leave a little room.
void TestLayoutSearch::workIsCountedAndDeterministic() {
    const AccountingInput in = base("gpt2-small", "H100-SXM", 8, 64);
    planLayouts(in, GpuCatalog::builtIn(), published(in)); // warm-up: the activation ledgers' cache fills
    const WorkCounter first;
    const LayoutPlan a = planLayouts(in, GpuCatalog::builtIn(), published(in));
    const WorkCounts workA = first.counted();
    const WorkCounter second;
    const LayoutPlan b = planLayouts(in, GpuCatalog::builtIn(), published(in));
    const WorkCounts workB = second.counted();
    QCOMPARE(a.counts, b.counts);
    QVERIFY(workA == workB);
    const PlanCounts& c = a.counts;
    QCOMPARE(c.considered, c.invalid + c.pruned + c.refusedForMemory + c.notTimed + c.timed);
    qInfo("gpt2-small on 8 GPUs: %lld considered, %lld invalid, %lld pruned, %lld over memory, %lld timed; "
          "%lld peak evaluations, %lld numbers formatted",
          static_cast<long long>(c.considered), static_cast<long long>(c.invalid),
          static_cast<long long>(c.pruned), static_cast<long long>(c.refusedForMemory),
          static_cast<long long>(c.timed), static_cast<long long>(workA.peakEvaluations),
          static_cast<long long>(workA.formattedNumbers));
    // Today: 7056 considered, 1549 timed (4499 pruned); 6 evaluations with formulas (the top 5 and yours),
    // 20114 numbers spelled, all in those six: every probe of the search spells nothing.
    QCOMPARE(c.considered, std::int64_t{7056});
    QVERIFY(c.timed <= 1700);
    QVERIFY(c.pruned >= 4000);
    QCOMPARE(workA.peakEvaluations, std::int64_t{6});
    QVERIFY(workA.formattedNumbers <= 22000);
}

// Megatron-LM's GPT-3 175B run: Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on
// GPU Clusters Using Megatron-LM" (SC '21, arXiv:2104.04473), Table 1: 175B parameters, 96 layers,
// hidden size 12288, 96 attention heads, tensor-parallel size 8, pipeline-parallel size 8, 1024 GPUs,
// batch size 1536, sequences of 2048 tokens, on A100 80 GB GPUs eight to a node, with activation
// recomputation (their FLOP count, section 5.1, counts the recomputed forward). Where the table is silent
// the benchmark's setup (plan_benchmark.h) assumes a micro-batch of 1, the plain 1F1B schedule, Adam in
// mixed bf16 (the published profile has no fp16 GEMM rate; A100's fp16 and bf16 peaks are equal), no
// ZeRO and eager attention. Nothing is fitted: the test holds that the layout is valid, fits, is timed, is
// in the search's space and is ranked, and prints its rank (docs/benchmarks.md records it).
void TestLayoutSearch::publishedLayoutFitsAndRanks() {
    const AccountingInput in = planBenchmarkSetup("gpt3-175b-1024")->input;
    QCOMPARE(in.model.layers, 96.0);
    QCOMPARE(in.model.dModel, 12288.0);
    QCOMPARE(in.model.heads, 96.0);
    QCOMPARE(in.model.seq, 2048.0);
    QCOMPARE(in.gpus, 1024.0);
    QCOMPARE(in.gpu, std::string("A100-SXM"));
    QCOMPARE(gpuOf(in).memoryBytes, 80e9);
    QCOMPARE(in.parallel.tp, 8.0);
    QCOMPARE(in.parallel.pp, 8.0);
    QCOMPARE(in.batch * in.parallel.microbatches * dataParallelSize(in.parallel, in.gpus), 1536.0);
    QVERIFY(in.recompute != Recompute::none);
    QVERIFY(validate(in).ok());
    const LayoutPlan plan = planLayouts(in, GpuCatalog::builtIn(), published(in));
    QCOMPARE(plan.yours.status, YourLayoutStatus::ranked);
    QVERIFY(plan.yours.inSpace);
    const PlannedLayout& yours = *plan.yours.layout;
    QVERIFY(yours.requiredBytes <= yours.usableBytes);
    QVERIFY(yours.rank >= 1 && yours.rank <= yours.rankAtMost);
    QVERIFY(!plan.top.empty());
    QCOMPARE(plan.counts.boundAboveTime, std::int64_t{0});
    qInfo("GPT-3 175B, Megatron-LM's layout: #%lld to #%lld (pruned; --exhaustive ranks it), %.1f %% slower "
          "than #1 (%s); #1 changes %s",
          static_cast<long long>(yours.rank), static_cast<long long>(yours.rankAtMost),
          100 * yours.slowerThanFirst, layoutChoiceText(plan.top.front().choice, in.gpus).c_str(),
          yours.changesFromFirst.c_str());
}

// The user's layout is ranked among all candidates: one that is also in the top K has that rank there.
void TestLayoutSearch::yourLayoutIsPlacedInTheRanking() {
    AccountingInput in = base("gpt2-small", "H100-SXM", 8, 64);
    const LayoutPlan plan = planLayouts(in, GpuCatalog::builtIn(), published(in));
    QCOMPARE(plan.yours.status, YourLayoutStatus::ranked);
    QVERIFY(plan.yours.layout->rank > 5); // plain DDP with eager attention is not among the fastest
    QVERIFY(plan.yours.layout->slowerThanFirst > 0);
    QVERIFY(!plan.yours.layout->changesFromFirst.empty());
    for (const PlannedLayout& p : plan.top) {
        const LayoutPlan again =
            planLayouts(withLayoutChoice(in, p.choice), GpuCatalog::builtIn(), published(in));
        QCOMPARE(again.yours.layout->rank, p.rank); // in the top K its rank is exact
        QCOMPARE(again.yours.layout->rankAtMost, p.rank);
    }
    in.parallel.tp = 5; // heads 12: refused by the engine's own validation
    const LayoutPlan invalid = planLayouts(in, GpuCatalog::builtIn(), published(in), [] {
        PlanOptions o;
        o.constraints.globalBatch = 64;
        return o;
    }());
    QCOMPARE(invalid.yours.status, YourLayoutStatus::invalid);
    QVERIFY(invalid.yours.why.starts_with("--tp: "));
    QVERIFY(!invalid.top.empty());
}

// Each runner-up names what it changes from #1 and the ledger's parts that make it slower; the parts'
// differences add up to the difference in step time.
void TestLayoutSearch::runnersUpSayWhyTheyLose() {
    const AccountingInput in = base("llama-2-7b", "H100-SXM", 16, 32);
    const LayoutPlan plan = planLayouts(in, GpuCatalog::builtIn(), published(in), options(true, 8));
    QCOMPARE(plan.top.size(), std::size_t{8});
    const PlannedLayout& first = plan.top.front();
    QVERIFY(first.changesFromFirst.empty() && first.losesBy.empty());
    for (std::size_t i = 1; i < plan.top.size(); ++i) {
        const PlannedLayout& p = plan.top[i];
        QCOMPARE(p.rank, static_cast<std::int64_t>(i + 1));
        QVERIFY(p.stepTime.seconds >= first.stepTime.seconds);
        QVERIFY(!p.changesFromFirst.empty());
        double sum = 0;
        for (const LedgerDifference& d : ledgerDifferences(first.stepTime, p.stepTime, 1000))
            sum += d.seconds;
        QVERIFY(std::abs(sum - (p.stepTime.seconds - first.stepTime.seconds)) <= 1e-9 * first.stepTime.seconds);
        if (p.slowerThanFirst > 1e-6)
            QVERIFY(!p.losesBy.empty() && std::abs(p.losesBy.front().seconds) > 0);
        QVERIFY(largestStepRows(p.stepTime, 3).size() == 3);
    }
}

// Llama 3 70B's weights and AdamW states alone are 16 B × 70.6e9 = 1.1 TB: two H100s hold no layout.
// The answer names the refusal that rules out the most and the candidate that came nearest.
void TestLayoutSearch::nothingFitsSaysWhyAndWhatCameNearest() {
    const AccountingInput in = base("llama3-70b", "H100-SXM", 2, 2);
    const LayoutPlan plan = planLayouts(in, GpuCatalog::builtIn(), published(in));
    QVERIFY(plan.whyNone.empty());
    QVERIFY(plan.top.empty());
    QVERIFY(plan.noFit.has_value());
    QCOMPARE(plan.noFit->mostCommon.reason, std::string("memory"));
    QCOMPARE(plan.noFit->mostCommon.candidates, plan.counts.refusedForMemory);
    QVERIFY(plan.noFit->nearest.has_value());
    const PlannedLayout& nearest = *plan.noFit->nearest;
    const double excess = nearest.requiredBytes - nearest.usableBytes;
    QVERIFY(excess > 0);
    // The least over of every candidate the space holds (no pruning happens when nothing fits).
    LayoutSpace space(in, gpuOf(in), {});
    for (const LayoutChoice& c : space.candidates()) {
        const AccountingInput candidate = withLayoutChoice(in, c);
        if (validate(candidate).ok())
            QVERIFY(requiredBytes(candidate, gpuOf(in)) - usableBytes(candidate, gpuOf(in)) >= excess);
    }
    QCOMPARE(plan.yours.status, YourLayoutStatus::doesNotFit);
}

void TestLayoutSearch::emptySpacesSayWhy() {
    // 5 GPUs: tp and pp must be 1 (5 shares no factor with the node's 8, and neither 12 layers nor 13 or 14,
    // the uneven splits', divide over 5 stages); dp 1 needs cp 5, which does not divide the 1024-token
    // sequence: every candidate is refused, by cp the most.
    AccountingInput in = base("gpt2-small", "H100-SXM", 5, 5);
    PlanOptions o;
    o.constraints.globalBatch = 3;
    const LayoutPlan plan = planLayouts(in, GpuCatalog::builtIn(), published(in), o);
    QVERIFY(plan.whyNone.empty());
    QVERIFY(plan.top.empty() && plan.noFit);
    QCOMPARE(plan.noFit->mostCommon.reason, std::string("cp"));
    QVERIFY(!plan.noFit->nearest);
    QCOMPARE(plan.yours.status, YourLayoutStatus::otherBatch);
    // A dense model splits by data parallelism alone: dp 4 does not divide 6 sequences.
    AccountingInput dense;
    dense.model.parameters = 1e9;
    dense.precision = PrecisionRecipe::mixedBf16;
    dense.gpus = 4;
    o.constraints.globalBatch = 6;
    const LayoutPlan none = planLayouts(dense, GpuCatalog::builtIn(), published(dense), o);
    QVERIFY(none.whyNone.find("divides the global batch") != std::string::npos);
    // A profile without the recipe's GEMMs times nothing: said once, not as thousands of refusals.
    dense.precision = PrecisionRecipe::fp32;
    o.constraints.globalBatch = 8;
    const LayoutPlan untimed = planLayouts(dense, GpuCatalog::builtIn(), published(dense), o);
    QVERIFY(untimed.whyNone.find("no fp32 GEMM rate") != std::string::npos);
}


// The app's progress bar and Cancel: keepGoing hears rising fractions below 1; always true changes nothing;
// false at once stops before any layout is timed, and the plan says it was cancelled.
void TestLayoutSearch::progressAndCancel() {
    const AccountingInput in = base(QStringLiteral("gpt2-small"), "H100-SXM", 8, 64);
    const LayoutPlan plain = planLayouts(in, GpuCatalog::builtIn(), published(in), options(true));
    QVERIFY(!plain.cancelled);

    PlanOptions watched = options(true);
    std::vector<double> heard;
    watched.keepGoing = [&heard](double fraction) {
        heard.push_back(fraction);
        return true;
    };
    const LayoutPlan followed = planLayouts(in, GpuCatalog::builtIn(), published(in), watched);
    QVERIFY(!followed.cancelled);
    QVERIFY(sameTop(plain, followed));
    QCOMPARE(followed.counts, plain.counts);
    QVERIFY(!heard.empty());
    QCOMPARE(heard.front(), 0.0);
    QVERIFY(std::is_sorted(heard.begin(), heard.end()));
    QVERIFY(heard.back() < 1);

    PlanOptions stopped = options(true);
    stopped.keepGoing = [](double) { return false; };
    const LayoutPlan cancelled = planLayouts(in, GpuCatalog::builtIn(), published(in), stopped);
    QVERIFY(cancelled.cancelled);
    QVERIFY(cancelled.top.empty());
    QCOMPARE(cancelled.counts.timed, std::int64_t{0});
}

// Uneven stages enter where pp does not divide the layers, a layer fewer on the first and/or last stage
// (layout_space.h): Llama 3 405B's 126 layers on 16 stages as 7 + 14 × 8 + 7 (the Llama 3 paper's own), on 8
// as 15 + 6 × 16 + 15, on 4 as 31 + 2 × 32 + 31; 2 stages split 126 evenly (63 + 63), with v dividing 63, and
// nothing uneven. No pp offers more than three uneven splits, each v 1 and valid.
void TestLayoutSearch::unevenStagesAreCandidates() {
    const AccountingInput in = base("llama3-405b", "H100-SXM", 128, 128);
    const LayoutSpace space(in, gpuOf(in), {});
    struct Split {
        double pp, v, first, last;
        bool operator<(const Split& o) const {
            return std::tie(pp, v, first, last) < std::tie(o.pp, o.v, o.first, o.last);
        }
        bool operator==(const Split&) const = default;
    };
    std::vector<Split> splits;
    for (const LayoutChoice& c : space.shapes()) {
        const ParallelLayout& l = c.parallel;
        if (l.tp != 8)
            continue;
        const Split s{l.pp, l.virtualStages, l.firstStageLayers.value_or(0), l.lastStageLayers.value_or(0)};
        if (std::find(splits.begin(), splits.end(), s) == splits.end())
            splits.push_back(s);
        if (hasUnevenStages(l)) {
            QCOMPARE(l.virtualStages, 1.0);
            QVERIFY(validateLayout(l, in.model, in.gpus).ok());
        }
    }
    std::sort(splits.begin(), splits.end());
    const std::vector<Split> expected{{1, 1, 0, 0},  {2, 1, 0, 0},   {2, 3, 0, 0},   {2, 7, 0, 0},
                                      {2, 9, 0, 0},  {2, 21, 0, 0},  {2, 63, 0, 0},  {4, 1, 31, 31},
                                      {8, 1, 15, 15}, {16, 1, 7, 7}};
    QCOMPARE(splits.size(), expected.size());
    QVERIFY(splits == expected);
    // GPT-2 small's 12 layers on 8 GPUs: every pp of 2, 4 or 8 either divides 12 or has no split a layer
    // fewer at either end (13 and 14 divide by none but 2, where 7 + 7 less one each is the even 6 + 6).
    const AccountingInput small = base("gpt2-small", "H100-SXM", 8, 64);
    const LayoutSpace smallSpace(small, gpuOf(small), {});
    for (const LayoutChoice& c : smallSpace.shapes())
        QVERIFY(!hasUnevenStages(c.parallel));
}

// Llama 3 405B on 128 H100s with 1024 sequences of 8192 tokens a step (8.4M tokens; the Llama 3 paper's
// batches were 4M–16M): a 16-stage pipeline's bubble is 15 of 1024 micro-batches, and no other layout beats
// it. 16 stages cannot split 126 layers evenly; the search finds the paper's own split (section 3.3.2: a
// layer fewer on the first and last stages), 7 + 14 × 8 + 7, and says why.
void TestLayoutSearch::unevenStagesWinLlama3sLongStep() {
    const AccountingInput in = base("llama3-405b", "H100-SXM", 128, 1024);
    const LayoutPlan plan = planLayouts(in, GpuCatalog::builtIn(), published(in), options(true, 1));
    QVERIFY2(plan.whyNone.empty(), plan.whyNone.c_str());
    QCOMPARE(plan.top.size(), std::size_t{1});
    const PlannedLayout& first = plan.top.front();
    qInfo("Llama 3 405B, 128 GPUs, 1024 sequences: #1 %s, %.4g s a step",
          layoutChoiceText(first.choice, in.gpus).c_str(), first.stepTime.seconds);
    const ParallelLayout& l = first.choice.parallel;
    QCOMPARE(l.pp, 16.0);
    QCOMPARE(l.firstStageLayers.value_or(0), 7.0);
    QCOMPARE(l.lastStageLayers.value_or(0), 7.0);
    QCOMPARE(plan.counts.boundAboveTime, std::int64_t{0});
    QVERIFY2(first.stages.find("126 layers over 16 stages as 7 + 14 × 8 + 7") != std::string::npos,
             first.stages.c_str());
    QVERIFY(first.stages.find("no even split") != std::string::npos);
    QVERIFY(first.stages.find("stage's ops are timed") != std::string::npos);
    QVERIFY(layoutChoiceText(first.choice, in.gpus).find("pp 16 (first 7, last 7 layers)") != std::string::npos);
}

// The same model and GPUs with 128 sequences a step: the layout that won above now has 128 micro-batches,
// its bubble 15/128 of the step, and ZeRO-3 without a pipeline is faster. Every uneven split is in the space
// (unevenStagesAreCandidates), none is chosen, and that layout is timed slower than the winner.
void TestLayoutSearch::unevenStagesLoseWhenTheirBubbleCosts() {
    const AccountingInput in = base("llama3-405b", "H100-SXM", 128, 128);
    const LayoutPlan plan = planLayouts(in, GpuCatalog::builtIn(), published(in), options(true, 5));
    QVERIFY(!plan.top.empty());
    for (const PlannedLayout& p : plan.top) {
        QVERIFY(!hasUnevenStages(p.choice.parallel));
        QVERIFY(p.stages.empty());
    }
    LayoutChoice uneven;
    uneven.parallel.pp = 16;
    uneven.parallel.cp = 8;
    uneven.parallel.microbatches = 128;
    uneven.parallel.firstStageLayers = 7;
    uneven.parallel.lastStageLayers = 7;
    uneven.recompute = Recompute::full;
    uneven.zeroStage = 3;
    uneven.attention = AttentionImpl::flash;
    const AccountingInput candidate = withLayoutChoice(in, uneven);
    QVERIFY(validate(candidate).ok());
    const AccountingResult r = accountStep(candidate, gpuOf(in));
    QVERIFY(r.fits);
    const StepTime t = predictStepTime(candidate, r, published(in));
    QVERIFY2(t.predicted, t.whyNot.c_str());
    qInfo("Llama 3 405B, 128 sequences: #1 %s %.4g s; pp 16 (first 7, last 7) %.4g s",
          layoutChoiceText(plan.top.front().choice, in.gpus).c_str(), plan.top.front().stepTime.seconds,
          t.seconds);
    QVERIFY(t.seconds > plan.top.front().stepTime.seconds);
}

QTEST_APPLESS_MAIN(TestLayoutSearch)
#include "tst_layout_search.moc"
