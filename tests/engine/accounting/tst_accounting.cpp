// SPDX-License-Identifier: GPL-3.0-or-later
// The accounting model against the lecture's worked answers and published model sizes.
#include "engine/accounting/accounting.h"

#include <QtTest>

using namespace napkin;

namespace {

AccountingInput dense(double params) {
    AccountingInput in;
    in.model.kind = ModelKind::dense;
    in.model.parameters = params;
    return in;
}

AccountingInput cruncher(double dim, double layers, double batch, OptimizerKind optimizer) {
    AccountingInput in;
    in.model.kind = ModelKind::cruncher;
    in.model.dim = dim;
    in.model.layers = layers;
    in.batch = batch;
    in.optimizer = optimizer;
    return in;
}

AccountingInput gpt(double d, double layers, double heads, double vocab, double seq) {
    AccountingInput in;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = d;
    in.model.layers = layers;
    in.model.heads = heads;
    in.model.vocab = vocab;
    in.model.seq = seq;
    return in;
}

AccountingResult run(const AccountingInput& in) {
    const InputError error = validate(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

} // namespace

class TestAccounting : public QObject {
    Q_OBJECT
private slots:
    void parameterCounts_data();
    void parameterCounts();
    void bytesPerParameter_data();
    void bytesPerParameter();
    void seventyBillionOnFifteenTrillionTokens();
    void largestModelOnEightH100();
    void cruncherLecture_data();
    void cruncherLecture();
    void linear2Lecture();
    void zeroShardsModelStates_data();
    void zeroShardsModelStates();
    void transformerActivationsKorthikanti_data();
    void transformerActivationsKorthikanti();
    void attentionMaskHalvesScores();
    void fullRecomputeAddsAForward();
    void componentsSumToTotals();
    void largestBatchFits();
    void trainingTimeUsesComputeDtypePeak_data();
    void trainingTimeUsesComputeDtypePeak();
    void extremeScaleStaysFinite();
    void validationNamesTheField_data();
    void validationNamesTheField();
    void formulasShowTheNumbers();
};

void TestAccounting::parameterCounts_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    QTest::addColumn<double>("expected");
    // transformer rows: a = d_model, b = layers; vocab 50257 and context 1024 (GPT-2) or 2048 (GPT-3)
    QTest::newRow("cruncher D=4 L=2 (lecture)") << int(ModelKind::cruncher) << 4.0 << 2.0 << 36.0;
    QTest::newRow("linear2 D=32768 K=8192") << int(ModelKind::linear2) << 32768.0 << 8192.0 << 1342177280.0;
    QTest::newRow("GPT-2 small 124,439,808") << int(ModelKind::transformer) << 768.0 << 12.0 << 124439808.0;
    QTest::newRow("GPT-2 medium 354,823,168") << int(ModelKind::transformer) << 1024.0 << 24.0 << 354823168.0;
    QTest::newRow("GPT-2 large 774,030,080") << int(ModelKind::transformer) << 1280.0 << 36.0 << 774030080.0;
    QTest::newRow("GPT-2 XL 1,557,611,200") << int(ModelKind::transformer) << 1600.0 << 48.0 << 1557611200.0;
}

void TestAccounting::parameterCounts() {
    QFETCH(int, kind);
    QFETCH(double, a);
    QFETCH(double, b);
    QFETCH(double, expected);
    ModelSpec m;
    m.kind = ModelKind(kind);
    if (m.kind == ModelKind::transformer) {
        m.dModel = a;
        m.layers = b;
        m.heads = a / 64;
        m.vocab = 50257;
        m.seq = 1024;
    } else {
        m.dim = a;
        m.layers = b;
        m.out = b;
    }
    QCOMPARE(countParameters(m).total, expected);
}

void TestAccounting::bytesPerParameter_data() {
    QTest::addColumn<QString>("recipe");
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<bool>("fp32Grads");
    QTest::addColumn<double>("expected");
    QTest::addColumn<QString>("ledger");
    QTest::newRow("fp32 AdamW: 16 (lecture)") << "fp32"
                                              << "adamw" << false << 16.0 << "4 + 4 + 4 + 4 = 16 B";
    QTest::newRow("fp32 SGD: 8") << "fp32"
                                 << "sgd" << false << 8.0 << "4 + 4 = 8 B";
    QTest::newRow("fp32 AdaGrad: 12") << "fp32"
                                      << "adagrad" << false << 12.0 << "4 + 4 + 4 = 12 B";
    QTest::newRow("mixed-bf16 AdamW: 16 (ZeRO paper)")
        << "mixed-bf16"
        << "adamw" << false << 16.0 << "2 + 2 + 4 + 4 + 4 = 16 B";
    QTest::newRow("mixed-bf16 AdamW fp32 grads: 18") << "mixed-bf16"
                                                     << "adamw" << true << 18.0 << "2 + 4 + 4 + 4 + 4 = 18 B";
    QTest::newRow("pure bf16 AdamW: 8") << "bf16"
                                        << "adamw" << false << 8.0 << "2 + 2 + 2 + 2 = 8 B";
    QTest::newRow("mixed-fp16 momentum: 12") << "mixed-fp16"
                                             << "momentum" << false << 12.0 << "2 + 2 + 4 + 4 = 12 B";
    QTest::newRow("fp8-mixed AdamW: 16") << "fp8-mixed"
                                         << "adamw" << false << 16.0 << "2 + 2 + 4 + 4 + 4 = 16 B";
}

void TestAccounting::bytesPerParameter() {
    QFETCH(QString, recipe);
    QFETCH(QString, optimizer);
    QFETCH(bool, fp32Grads);
    QFETCH(double, expected);
    QFETCH(QString, ledger);
    const auto r = precisionRecipeFromName(recipe.toStdString());
    const auto o = optimizerFromName(optimizer.toStdString());
    QVERIFY(r && o);
    const BytesPerParameter b = napkin::bytesPerParameter(ledgerFor(*r, fp32Grads), *o);
    QCOMPARE(b.total, expected);
    QCOMPARE(QString::fromStdString(b.ledger), ledger);
}

void TestAccounting::seventyBillionOnFifteenTrillionTokens() {
    AccountingInput in = dense(70e9);
    in.trainingTokens = 15e12;
    in.gpus = 1024;
    in.mfu = 0.5;
    in.precision = PrecisionRecipe::mixedBf16;
    const AccountingResult r = run(in);
    QCOMPARE(r.trainingFlops->value, 6.3e24);
    QCOMPARE(r.densePeakFlopsPerSecond.value, 989.4e12);
    QCOMPARE(r.trainingSeconds->value, 6.3e24 / (1024 * 989.4e12 * 0.5));
    QVERIFY(qAbs(r.trainingDays->value - 143.94) < 0.01);
    QCOMPARE(QString::fromStdString(r.trainingFlops->formula),
             QString("model FLOPs = 6·N·tokens = 6 × 7.00e10 × 1.50e13 = 6.30e24 FLOPs"));
}

void TestAccounting::largestModelOnEightH100() {
    AccountingInput in = dense(1e9);
    in.gpus = 8;
    in.zeroStage = 3; // the lecture pools all 8 × 80 GB
    in.optimizer = OptimizerKind::adamw;
    in.overheads = datasheetOverheads(); // the lecture's convention: 80 GB = 80e9 B, no overheads
    const AccountingResult r = run(in);
    QCOMPARE(r.bytesPerParameter.total, 16.0);
    QCOMPARE(r.maxParameters.value, 40e9);
    in.zeroStage = 0; // without sharding each GPU must hold everything
    QCOMPARE(run(in).maxParameters.value, 5e9);
}

void TestAccounting::cruncherLecture_data() {
    QTest::addColumn<int>("optimizer");
    QTest::addColumn<double>("stateBytes");
    QTest::addColumn<double>("totalBytes");
    QTest::newRow("AdaGrad: 4·(36+16+36+36) = 496 (lecture)")
        << int(OptimizerKind::adagrad) << 144.0 << 496.0;
    QTest::newRow("SGD: 4·(36+16+36) = 352") << int(OptimizerKind::sgd) << 0.0 << 352.0;
    QTest::newRow("Adam: 4·(36+16+36+72) = 640") << int(OptimizerKind::adam) << 288.0 << 640.0;
}

void TestAccounting::cruncherLecture() {
    QFETCH(int, optimizer);
    QFETCH(double, stateBytes);
    QFETCH(double, totalBytes);
    const AccountingResult r = run(cruncher(4, 2, 2, OptimizerKind(optimizer)));
    QCOMPARE(r.parameters.total, 36.0);
    QCOMPARE(r.memory.parameters.value, 144.0);
    QCOMPARE(r.memory.activations.value, 64.0); // B·D·L = 16 elements
    QCOMPARE(r.memory.gradients.value, 144.0);
    QCOMPARE(r.memory.optimizerState.value, stateBytes);
    QCOMPARE(r.memory.total.value, totalBytes);
    QCOMPARE(r.flopsPerStep.total, 432.0); // 6·B·P = 6·2·36
    QCOMPARE(r.flopsPerStep.forward, 144.0);
}

void TestAccounting::linear2Lecture() {
    AccountingInput in;
    in.model.kind = ModelKind::linear2;
    in.model.dim = 32768;
    in.model.out = 8192;
    in.batch = 16384;
    const AccountingResult r = run(in);
    QCOMPARE(r.flopsPerStep.forward, 2.0 * 16384 * (32768.0 * 32768 + 32768.0 * 8192));
    QVERIFY(qAbs(r.flopsPerStep.forward - 4.398e13) < 0.001e13);
    QCOMPARE(r.flopsPerStep.backward, 2 * r.flopsPerStep.forward);
}

void TestAccounting::zeroShardsModelStates_data() {
    QTest::addColumn<int>("stage");
    QTest::addColumn<double>("params");
    QTest::addColumn<double>("grads");
    QTest::addColumn<double>("masterAndState");
    // 1e9 params, mixed-bf16 AdamW (2 + 2 + 12), 8 GPUs: Rajbhandari et al.'s Ψ = 1e9, K = 12, N_d = 8
    QTest::newRow("ZeRO-0: 16Ψ") << 0 << 2e9 << 2e9 << 12e9;
    QTest::newRow("ZeRO-1: 4Ψ + 12Ψ/8") << 1 << 2e9 << 2e9 << 1.5e9;
    QTest::newRow("ZeRO-2: 2Ψ + 14Ψ/8") << 2 << 2e9 << 0.25e9 << 1.5e9;
    QTest::newRow("ZeRO-3: 16Ψ/8") << 3 << 0.25e9 << 0.25e9 << 1.5e9;
}

void TestAccounting::zeroShardsModelStates() {
    QFETCH(int, stage);
    QFETCH(double, params);
    QFETCH(double, grads);
    QFETCH(double, masterAndState);
    AccountingInput in = dense(1e9);
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpus = 8;
    in.zeroStage = stage;
    const AccountingResult r = run(in);
    QCOMPARE(r.memory.parameters.value, params);
    QCOMPARE(r.memory.gradients.value, grads);
    QCOMPARE(r.memory.masterWeights.value + r.memory.optimizerState.value, masterAndState);
}

void TestAccounting::transformerActivationsKorthikanti_data() {
    QTest::addColumn<int>("recompute");
    QTest::addColumn<double>("perLayerCoefficient"); // bytes per layer / (s·b·h)
    // GPT-3 175B shape: s = 2048, h = 12288, a = 96 → 5·a·s/h = 80
    QTest::newRow("none: 34 + 5as/h = 114") << int(Recompute::none) << 114.0;
    QTest::newRow("selective: 34") << int(Recompute::selective) << 34.0;
    QTest::newRow("full: 2") << int(Recompute::full) << 2.0;
}

void TestAccounting::transformerActivationsKorthikanti() {
    QFETCH(int, recompute);
    QFETCH(double, perLayerCoefficient);
    AccountingInput in = gpt(12288, 96, 96, 50257, 2048);
    in.precision = PrecisionRecipe::mixedBf16;
    in.recompute = Recompute(recompute);
    in.batch = 1;
    const AccountingResult r = run(in);
    const double sbh = 2048.0 * 12288;
    const double logits = 4.0 * 2048 * 50257;
    QCOMPARE(r.memory.activations.value, 96 * perLayerCoefficient * sbh + logits);
}

void TestAccounting::attentionMaskHalvesScores() {
    AccountingInput in = gpt(768, 12, 12, 50257, 1024);
    in.attention = AttentionMask::full;
    const double full = run(in).flopsPerStep.attentionScores;
    in.attention = AttentionMask::causal;
    const double causal = run(in).flopsPerStep.attentionScores;
    QCOMPARE(full, 12 * 4.0 * 1024 * 1024 * 768); // L · 4·b·s²·d
    QCOMPARE(causal, full / 2);
}

void TestAccounting::fullRecomputeAddsAForward() {
    AccountingInput in = gpt(768, 12, 12, 50257, 1024);
    const AccountingResult none = run(in);
    in.recompute = Recompute::full;
    const AccountingResult full = run(in);
    const double head = 2.0 * 1024 * 768 * 50257;
    QCOMPARE(full.flopsPerStep.recompute, none.flopsPerStep.forward - head);
    QCOMPARE(full.flopsPerStep.total, none.flopsPerStep.total + full.flopsPerStep.recompute);
    QVERIFY(full.memory.activations.value < none.memory.activations.value);
}

void TestAccounting::componentsSumToTotals() {
    for (const AccountingInput& in :
         {gpt(768, 12, 12, 50257, 1024), cruncher(64, 5, 32, OptimizerKind::adam)}) {
        const AccountingResult r = run(in);
        double forward = 0;
        for (const ComponentFlops& c : r.flopsPerStep.components)
            forward += c.forward;
        QCOMPARE(forward, r.flopsPerStep.forward);
        const MemoryPerGpu& m = r.memory;
        QCOMPARE(m.total.value, m.parameters.value + m.gradients.value + m.masterWeights.value +
                                    m.optimizerState.value + m.activations.value);
    }
}

void TestAccounting::largestBatchFits() {
    AccountingInput in = gpt(768, 12, 12, 50257, 1024);
    in.precision = PrecisionRecipe::mixedBf16;
    const AccountingResult r = run(in);
    QVERIFY(r.maxBatch);
    in.batch = r.maxBatch->value;
    QVERIFY(run(in).fits);
    in.batch = r.maxBatch->value + 1;
    QVERIFY(!run(in).fits);
}

void TestAccounting::trainingTimeUsesComputeDtypePeak_data() {
    QTest::addColumn<QString>("recipe");
    QTest::addColumn<double>("peak");
    QTest::newRow("fp32 → 67 TFLOP/s") << "fp32" << 67e12;
    QTest::newRow("mixed-bf16 → 989.4") << "mixed-bf16" << 989.4e12;
    QTest::newRow("fp16 → 989.4") << "fp16" << 989.4e12;
    QTest::newRow("fp8-mixed → 1978.9") << "fp8-mixed" << 1978.9e12;
}

void TestAccounting::trainingTimeUsesComputeDtypePeak() {
    QFETCH(QString, recipe);
    QFETCH(double, peak);
    AccountingInput in = dense(1e9);
    in.trainingTokens = 1e12;
    in.precision = *precisionRecipeFromName(recipe.toStdString());
    const AccountingResult r = run(in);
    QCOMPARE(r.densePeakFlopsPerSecond.value, peak);
    QCOMPARE(r.trainingSeconds->value, 6e21 / (peak * 0.5));
}

void TestAccounting::extremeScaleStaysFinite() {
    AccountingInput in = dense(1e13);
    in.trainingTokens = 1e14;
    in.batch = 1e6;
    in.model.seq = 1e6; // 1e12 tokens per step: 6e25 FLOPs per step, beyond any 64-bit integer
    const AccountingResult r = run(in);
    QCOMPARE(r.trainingFlops->value, 6e27);
    QCOMPARE(r.flopsPerStep.total, 6e25);
    QCOMPARE(r.memory.total.value, 16e13);
    QVERIFY(std::isfinite(r.trainingDays->value));
}

void TestAccounting::validationNamesTheField_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("what");
    QTest::newRow("mfu 0") << "mfu"
                           << "mfu0";
    QTest::newRow("mfu 1.5") << "mfu"
                             << "mfu1.5";
    QTest::newRow("params 0") << "params"
                              << "params0";
    QTest::newRow("params fractional") << "params"
                                       << "params1.5";
    QTest::newRow("params over 1e15") << "params"
                                      << "params1e16";
    QTest::newRow("batch 0") << "batch"
                             << "batch0";
    QTest::newRow("gpus 0") << "gpus"
                            << "gpus0";
    QTest::newRow("zero 4") << "zero"
                            << "zero4";
    QTest::newRow("unknown gpu") << "gpu"
                                 << "gpuX";
    QTest::newRow("tokens negative") << "tokens"
                                     << "tokens-1";
}

void TestAccounting::validationNamesTheField() {
    QFETCH(QString, field);
    QFETCH(QString, what);
    AccountingInput in = dense(1e9);
    if (what == "mfu0")
        in.mfu = 0;
    if (what == "mfu1.5")
        in.mfu = 1.5;
    if (what == "params0")
        in.model.parameters = 0;
    if (what == "params1.5")
        in.model.parameters = 1.5;
    if (what == "params1e16")
        in.model.parameters = 1e16;
    if (what == "batch0")
        in.batch = 0;
    if (what == "gpus0")
        in.gpus = 0;
    if (what == "zero4")
        in.zeroStage = 4;
    if (what == "gpuX")
        in.gpu = "TPUv5";
    if (what == "tokens-1")
        in.trainingTokens = -1;
    const InputError e = validate(in);
    QCOMPARE(QString::fromStdString(e.field), field);
    QVERIFY(!e.message.empty());
}

void TestAccounting::formulasShowTheNumbers() {
    const AccountingResult r = run(cruncher(4, 2, 2, OptimizerKind::adagrad));
    QCOMPARE(QString::fromStdString(r.parameters.formula), QString("L·D² + D = 2 × 4² + 4 = 36"));
    QCOMPARE(QString::fromStdString(r.memory.total.formula), QString("144 + 144 + 0 + 144 + 64 = 496 B"));
    QCOMPARE(QString::fromStdString(r.flopsPerStep.totalFormula),
             QString("forward + backward + recompute = 144 + 288 + 0 = 432 FLOPs"));
}

QTEST_APPLESS_MAIN(TestAccounting)
#include "tst_accounting.moc"
