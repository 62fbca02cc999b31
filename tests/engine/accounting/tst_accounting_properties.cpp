// SPDX-License-Identifier: GPL-3.0-or-later
// Properties the accounting must keep for every input, checked over a grid of configurations:
// totals are the sum of their parts, more of anything never costs less, sharding never costs more,
// and the largest scales stay finite and exact.
#include "engine/accounting/accounting.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

namespace {

std::vector<AccountingInput> grid() {
    std::vector<AccountingInput> inputs;
    for (ModelKind kind : {ModelKind::dense, ModelKind::cruncher, ModelKind::linear2, ModelKind::transformer})
        for (PrecisionRecipe recipe : allPrecisionRecipes())
            for (OptimizerKind optimizer : allOptimizers())
                for (Recompute recompute : {Recompute::none, Recompute::selective, Recompute::full}) {
                    AccountingInput in;
                    in.model.kind = kind;
                    in.model.parameters = 7e9;
                    in.model.dim = 1024;
                    in.model.layers = 6;
                    in.model.out = 10;
                    in.model.dModel = 2048;
                    in.model.heads = 16;
                    in.model.vocab = 32000;
                    in.model.seq = kind == ModelKind::transformer ? 2048 : 1;
                    in.batch = 4;
                    in.trainingTokens = 1e12;
                    in.precision = recipe;
                    in.optimizer = optimizer;
                    in.recompute = recompute;
                    in.gpus = 8;
                    inputs.push_back(in);
                }
    return inputs;
}

AccountingResult run(const AccountingInput& in) {
    const InputError e = validate(in);
    if (!e.ok())
        qFatal("invalid grid input: %s %s", e.field.c_str(), e.message.c_str());
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

double sumOfParts(const MemoryPerGpu& m) {
    return m.parameters.value + m.gradients.value + m.masterWeights.value + m.optimizerState.value +
           m.activations.value;
}

} // namespace

class TestAccountingProperties : public QObject {
    Q_OBJECT
private slots:
    void totalsAreSumsOfParts();
    void moreParametersNeverCostLess();
    void largerBatchNeverCostsLess();
    void moreTokensNeverTakeLess();
    void zeroNeverIncreasesMemory();
    void recomputeTradesFlopsForMemory();
    void largestScalesAreFiniteAndExact();
};

void TestAccountingProperties::totalsAreSumsOfParts() {
    for (const AccountingInput& in : grid()) {
        const AccountingResult r = run(in);
        QCOMPARE(r.memory.total.value, sumOfParts(r.memory));
        QCOMPARE(r.flopsPerStep.total,
                 r.flopsPerStep.forward + r.flopsPerStep.backward + r.flopsPerStep.recompute);
        QCOMPARE(r.bytesPerParameter.total, r.bytesPerParameter.parameters + r.bytesPerParameter.gradients +
                                                r.bytesPerParameter.masterWeights +
                                                r.bytesPerParameter.optimizerState);
        // fits judges the step's peak plus the counted overheads against the usable memory.
        QCOMPARE(r.fits, r.predictedBytes.value <= r.usableBytes.value);
        QVERIFY(r.predictedBytes.value >= r.peakMemory.value);
    }
}

void TestAccountingProperties::moreParametersNeverCostLess() {
    for (AccountingInput in : grid()) {
        const AccountingResult before = run(in);
        in.model.parameters *= 2;
        in.model.dim *= 2;
        in.model.dModel *= 2;
        const AccountingResult after = run(in);
        QVERIFY(after.parameters.total > before.parameters.total);
        QVERIFY(after.memory.total.value > before.memory.total.value);
        QVERIFY(after.flopsPerStep.total > before.flopsPerStep.total);
        QVERIFY(after.trainingFlops->value > before.trainingFlops->value);
    }
}

void TestAccountingProperties::largerBatchNeverCostsLess() {
    for (AccountingInput in : grid()) {
        const AccountingResult before = run(in);
        in.batch *= 3;
        const AccountingResult after = run(in);
        QVERIFY(after.memory.total.value >= before.memory.total.value);
        QVERIFY(after.flopsPerStep.total > before.flopsPerStep.total);
        QCOMPARE(after.flopsPerToken.value, before.flopsPerToken.value); // the per-token cost is the batch's
    }
}

void TestAccountingProperties::moreTokensNeverTakeLess() {
    for (AccountingInput in : grid()) {
        const AccountingResult before = run(in);
        in.trainingTokens = *in.trainingTokens * 10;
        const AccountingResult after = run(in);
        QCOMPARE(after.trainingFlops->value, 10 * before.trainingFlops->value);
        QVERIFY(after.trainingSeconds->value > before.trainingSeconds->value);
    }
}

void TestAccountingProperties::zeroNeverIncreasesMemory() {
    for (AccountingInput in : grid()) {
        double previous = INFINITY;
        double previousMax = 0;
        for (int stage = 0; stage <= 3; ++stage) {
            in.zeroStage = stage;
            const AccountingResult r = run(in);
            QVERIFY(r.memory.total.value <= previous);
            QVERIFY(r.maxParameters.value >= previousMax);
            previous = r.memory.total.value;
            previousMax = r.maxParameters.value;
        }
    }
}

void TestAccountingProperties::recomputeTradesFlopsForMemory() {
    for (AccountingInput in : grid()) {
        if (in.model.kind != ModelKind::transformer || in.recompute != Recompute::none)
            continue;
        const AccountingResult none = run(in);
        in.recompute = Recompute::selective;
        const AccountingResult selective = run(in);
        in.recompute = Recompute::full;
        const AccountingResult full = run(in);
        QVERIFY(none.memory.activations.value > selective.memory.activations.value);
        QVERIFY(selective.memory.activations.value > full.memory.activations.value);
        QVERIFY(none.flopsPerStep.total < selective.flopsPerStep.total);
        QVERIFY(selective.flopsPerStep.total < full.flopsPerStep.total);
    }
}

void TestAccountingProperties::largestScalesAreFiniteAndExact() {
    AccountingInput in;
    in.model.kind = ModelKind::dense;
    in.model.parameters = 1e13;
    in.trainingTokens = 1e14;
    in.gpus = 1e7;
    in.zeroStage = 3;
    const AccountingResult r = run(in);
    QCOMPARE(r.parameters.total, 1e13); // exact: below 2^53
    QCOMPARE(r.memory.parameters.value, 4e13 / 1e7);
    QVERIFY(std::isfinite(r.trainingFlops->value) && std::isfinite(r.trainingDays->value));
    QCOMPARE(r.trainingFlops->value, 6e27); // beyond 2^64 ≈ 1.8e19, still the right double

    AccountingInput gpt;
    gpt.model.kind = ModelKind::transformer;
    gpt.model.dModel = 1e5; // a transformer near the 1e15-parameter ceiling
    gpt.model.heads = 1000;
    gpt.model.layers = 8000;
    gpt.model.vocab = 1e6;
    gpt.model.seq = 1e5;
    gpt.batch = 1e3;
    gpt.trainingTokens = 1e18;
    QVERIFY(validate(gpt).ok());
    const AccountingResult big = run(gpt);
    QCOMPARE(big.parameters.total, 12 * 8000 * 1e10 + 13 * 8000 * 1e5 + 1e6 * 1e5 + 1e5 * 1e5 + 2 * 1e5);
    QVERIFY(std::isfinite(big.memory.total.value) && std::isfinite(big.trainingDays->value));
}

QTEST_APPLESS_MAIN(TestAccountingProperties)
#include "tst_accounting_properties.moc"
