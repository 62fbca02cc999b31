// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-, Llama- and Mixtral-style transformers against their published sizes, and the activation ledger
// against Korthikanti et al. 2022's closed forms (Table 2) and hand counts for the other architectures.
#include "engine/accounting/accounting.h"
#include "engine/accounting/activation_ledger.h"
#include "engine/models/model_presets.h"
#include "engine/models/transformer_parameters.h"

#include <QtTest>

using namespace napkin;

namespace {

AccountingResult run(const AccountingInput& in) {
    const InputError error = validate(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

AccountingInput presetInput(const char* id) {
    AccountingInput in;
    in.model = findModelPreset(id)->model;
    in.precision = PrecisionRecipe::mixedBf16;
    return in;
}

// The GPT-3 175B shape Korthikanti et al. use: s = 2048, h = 12288, a = 96, L = 96 (5·a·s/h = 80).
AccountingInput gpt3(double tp, bool sp, Recompute recompute) {
    AccountingInput in = presetInput("gpt3-175b");
    in.recompute = recompute;
    in.parallel.tp = tp;
    in.parallel.sp = sp;
    in.gpus = tp;
    return in;
}

} // namespace

class TestModelArchitectures : public QObject {
    Q_OBJECT
private slots:
    void publishedParameterCounts_data();
    void publishedParameterCounts();
    void llama3FromExplicitFields();
    void llamaComponents();
    void moeFlopsUseActiveExperts();
    void korthikantiTable2_data();
    void korthikantiTable2();
    void ledgerHandCounts_data();
    void ledgerHandCounts();
    void fp32DropoutMasksAreOneByte_data();
    void fp32DropoutMasksAreOneByte();
    void familiesRoundTrip();
    void architectureValidation_data();
    void architectureValidation();
};

void TestModelArchitectures::publishedParameterCounts_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("active");
    // GPT-2 (Radford et al. 2019): 12·L·d² + 13·L·d + V·d + S·d + 2·d, V = 50257, S = 1024.
    //   small d 768, L 12: 84,934,656 + 119,808 + 38,597,376 + 786,432 + 1,536 = 124,439,808.
    QTest::newRow("GPT-2 small 124,439,808") << "gpt2-small" << 124439808.0 << 124439808.0;
    //   XL d 1600, L 48: 1,474,560,000 + 998,400 + 80,411,200 + 1,638,400 + 3,200 = 1,557,611,200.
    QTest::newRow("GPT-2 XL 1,557,611,200") << "gpt2-xl" << 1557611200.0 << 1557611200.0;
    // GPT-3 (Brown et al. 2020, Table 2.1) d 12288, L 96, S 2048: 173,946,175,488 + 15,335,424 +
    //   617,558,016 + 25,165,824 + 24,576 = 174,604,259,328 ("175B").
    QTest::newRow("GPT-3 174,604,259,328") << "gpt3-175b" << 174604259328.0 << 174604259328.0;
    // Llama 3 (Meta 2024, Table 3; config.json): per layer Wq, Wo d² each, Wk, Wv d·1024 each
    // (8 KV heads × 128), SwiGLU 3·d·f, two RMSNorms d each; untied V·d twice; final norm d.
    //   8B d 4096, f 14336: 32 × (33,554,432 + 8,388,608 + 176,160,768 + 8,192) + 2 × 525,336,576 + 4,096
    //   = 6,979,584,000 + 1,050,673,152 + 4,096 = 8,030,261,248.
    QTest::newRow("Llama 3 8B 8,030,261,248") << "llama3-8b" << 8030261248.0 << 8030261248.0;
    //   70B d 8192, L 80, f 28672: 80 × (134,217,728 + 16,777,216 + 704,643,072 + 16,384)
    //   + 2 × 1,050,673,152 + 8,192 = 68,452,352,000 + 2,101,346,304 + 8,192 = 70,553,706,496 ("70.6B").
    QTest::newRow("Llama 3 70B 70,553,706,496") << "llama3-70b" << 70553706496.0 << 70553706496.0;
    //   405B d 16384, L 126, f 53248: 126 × (536,870,912 + 33,554,432 + 2,617,245,696 + 32,768)
    //   + 2 × 2,101,346,304 + 16,384 = 401,650,679,808 + 4,202,692,608 + 16,384 = 405,853,388,800.
    QTest::newRow("Llama 3 405B 405,853,388,800") << "llama3-405b" << 405853388800.0 << 405853388800.0;
    // Mixtral 8x7B (Jiang et al. 2024; config.json): Llama 3 8B's attention, 8 experts of 176,160,768,
    // a 4096×8 router (32,768), V 32000: 32 × (41,943,040 + 1,409,286,144 + 32,768 + 8,192)
    // + 2 × 131,072,000 + 4,096 = 46,702,792,704 ("46.7B"); active with 2 experts:
    // 32 × (41,943,040 + 352,321,536 + 32,768 + 8,192) + 262,144,000 + 4,096 = 12,879,925,248 ("12.9B").
    QTest::newRow("Mixtral 8x7B 46.7B / 12.9B") << "mixtral-8x7b" << 46702792704.0 << 12879925248.0;
}

void TestModelArchitectures::publishedParameterCounts() {
    QFETCH(QString, preset);
    QFETCH(double, total);
    QFETCH(double, active);
    const ModelPreset* p = findModelPreset(preset.toStdString());
    QVERIFY(p);
    const ParameterCount count = countParameters(p->model);
    QCOMPARE(count.total, total);
    QCOMPARE(count.active, active);
    double sum = 0;
    for (const NamedCount& c : count.components)
        sum += c.count;
    QCOMPARE(sum, total);
    QVERIFY2(QString::fromStdString(count.formula).endsWith(QString::number(qint64(total))),
             count.formula.c_str());
}

void TestModelArchitectures::llama3FromExplicitFields() {
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.dModel = 4096;
    m.layers = 32;
    m.heads = 32;
    m.kvHeads = 8;
    m.ffnDim = 14336;
    m.vocab = 128256;
    m.seq = 8192;
    m.mlp = MlpKind::swiglu;
    m.norm = NormKind::rmsnorm;
    m.bias = false;
    m.embeddings = EmbeddingTying::untied;
    m.position = PositionKind::rope;
    QCOMPARE(countParameters(m).total, 8030261248.0);
    QCOMPARE(QString::fromStdString(countParameters(m).formula),
             QString("L·(2·d² + 2·d·d_kv + 3·d·f + 2·d) + 2·V·d + d with d_kv = g·d/a = 1024, f = 14336: "
                     "32 × (4.19e7 + 1.76e8 + 8192) + 5.25e8 + 5.25e8 + 4096 = 8030261248"));
}

void TestModelArchitectures::llamaComponents() {
    const ParameterCount c = countParameters(findModelPreset("llama3-8b")->model);
    QCOMPARE(c.components.size(), std::size_t(5));
    QCOMPARE(c.components[0].name, std::string("attention"));
    QCOMPARE(c.components[0].count, 32 * 41943040.0);
    QCOMPARE(c.components[1].name, std::string("mlp"));
    QCOMPARE(c.components[1].count, 32 * 176160768.0);
    QCOMPARE(c.components[2].count, 32 * 8192.0 + 4096); // RMSNorm weights only
    QCOMPARE(c.components[3].count, 525336576.0);        // RoPE: no position table
    QCOMPARE(c.components[4].name, std::string("output"));
    // Matmul weights: 32 × (41,943,040 + 176,160,768) + the 525,336,576 output matrix.
    QCOMPARE(c.matmulParameters, 7504658432.0);
}

void TestModelArchitectures::moeFlopsUseActiveExperts() {
    AccountingInput in = presetInput("mixtral-8x7b");
    in.model.seq = 4096;
    const AccountingResult r = run(in);
    // Forward: 2·T·(active matmul weights) + scores; active matmul = 32 × (41,943,040 + 2 × 176,160,768
    // + 32,768) + 131,072,000 (the untied head) = 12,748,587,008.
    QCOMPARE(r.parameters.matmulParameters, 12748587008.0);
    QCOMPARE(r.flopsPerStep.forward, 2 * 4096 * 12748587008.0 + r.flopsPerStep.attentionScores);
}

void TestModelArchitectures::korthikantiTable2_data() {
    QTest::addColumn<double>("tp");
    QTest::addColumn<bool>("sp");
    QTest::addColumn<int>("recompute");
    QTest::addColumn<double>("coefficient"); // bytes per layer / (s·b·h), Table 2 with 5·a·s/h = 80
    QTest::addColumn<QString>("formula");
    QTest::newRow("no parallelism: 34 + 5as/h = 114")
        << 1.0 << false << int(Recompute::none) << 114.0 << "s·b·h·(34 + 5·a·s/h)";
    QTest::newRow("TP 2: 10 + 24/2 + 80/2 = 62")
        << 2.0 << false << int(Recompute::none) << 62.0 << "s·b·h·(10 + 24/t + 5·a·s/(h·t))";
    QTest::newRow("TP 8: 10 + 3 + 10 = 23")
        << 8.0 << false << int(Recompute::none) << 23.0 << "s·b·h·(10 + 24/t + 5·a·s/(h·t))";
    QTest::newRow("TP 2 + SP: 114/2 = 57")
        << 2.0 << true << int(Recompute::none) << 57.0 << "s·b·h·(34 + 5·a·s/h)/t";
    QTest::newRow("TP 8 + SP: 114/8 = 14.25")
        << 8.0 << true << int(Recompute::none) << 14.25 << "s·b·h·(34 + 5·a·s/h)/t";
    QTest::newRow("selective: 34") << 1.0 << false << int(Recompute::selective) << 34.0 << "34·s·b·h";
    QTest::newRow("selective TP 8: 10 + 24/8 = 13")
        << 8.0 << false << int(Recompute::selective) << 13.0 << "s·b·h·(10 + 24/t)";
    QTest::newRow("selective TP 2 + SP: 34/2 = 17")
        << 2.0 << true << int(Recompute::selective) << 17.0 << "34·s·b·h/t";
    QTest::newRow("selective TP 8 + SP: 34/8 = 4.25")
        << 8.0 << true << int(Recompute::selective) << 4.25 << "34·s·b·h/t";
    QTest::newRow("full: 2") << 1.0 << false << int(Recompute::full) << 2.0 << "2·s·b·h";
    QTest::newRow("full TP 8: 2") << 8.0 << false << int(Recompute::full) << 2.0 << "2·s·b·h";
    QTest::newRow("full TP 8 + SP: 2/8") << 8.0 << true << int(Recompute::full) << 0.25 << "2·s·b·h/t";
}

void TestModelArchitectures::korthikantiTable2() {
    QFETCH(double, tp);
    QFETCH(bool, sp);
    QFETCH(int, recompute);
    QFETCH(double, coefficient);
    QFETCH(QString, formula);
    const AccountingResult r = run(gpt3(tp, sp, Recompute(recompute)));
    const double sbh = 2048.0 * 12288, logits = 4.0 * 2048 * 50257 / tp; // fp32 logits, vocabulary-parallel
    QCOMPARE(r.memory.activations.value, 96 * coefficient * sbh + logits);
    QVERIFY2(QString::fromStdString(r.memory.activations.formula).startsWith("L·" + formula),
             r.memory.activations.formula.c_str());
    // The ledger, tensor by tensor, sums to the same bytes.
    double perLayer = 0, once = 0;
    for (const ActivationLedgerRow& row : r.activations.ledger)
        (row.perLayer ? perLayer : once) += row.bytes;
    QCOMPARE(96 * perLayer + once, r.memory.activations.value);
}

void TestModelArchitectures::ledgerHandCounts_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("change");
    QTest::addColumn<double>("bytesPerToken"); // one layer, 16-bit activations, no parallelism
    // GPT-2 small h 768, a 12, s 1024 (5·a·s = 61,440).
    // Dropout off: no masks (2 × h) and no dropped-out copy or mask of the scores: 32h + 2·a·s.
    QTest::newRow("GPT-2, dropout off: 32h + 2as") << "gpt2-small"
                                                   << "nodropout" << 32.0 * 768 + 2 * 12 * 1024;
    // Flash attention: no a·s tensors; an fp32 log-sum-exp per head and row (4a): 34h + 4a.
    QTest::newRow("GPT-2, flash: 34h + 4a") << "gpt2-small"
                                            << "flash" << 34.0 * 768 + 4 * 12;
    // GQA with 3 KV heads of 12: K and V are h/4 wide: 34h − 2·2·(3/4)h + 5as = 31h + 5as.
    QTest::newRow("GPT-2, GQA 3 of 12: 31h + 5as") << "gpt2-small"
                                                   << "gqa" << 31.0 * 768 + 5 * 12 * 1024;
    // Llama 3 8B (flash, no dropout, h 4096, d_kv 1024, a 32, f 14336): norm inputs and outputs 8h, Q and
    // the attention output 4h, K and V 4·d_kv, log-sum-exp 4a, SwiGLU's four f-wide tensors 8f
    // = 32768 + 16384 + 4096 + 128 + 114688 = 168,064.
    QTest::newRow("Llama 3 8B: 12h + 4d_kv + 4a + 8f") << "llama3-8b"
                                                       << "" << 168064.0;
    // Mixtral (Llama 3 8B's attention, 8 experts, top-2): attention 8h + 4·d_kv + 4a = 36,992; MLP norm
    // input and output 4h = 16,384; router probabilities 4E (fp32) = 32; gate weights 2K = 4; routed
    // copies and expert outputs 2 × 2Kh = 32,768; the experts' SwiGLU tensors 8Kf = 229,376: 315,556.
    QTest::newRow("Mixtral: routed tokens ×K") << "mixtral-8x7b"
                                               << "" << 315556.0;
}

void TestModelArchitectures::ledgerHandCounts() {
    QFETCH(QString, preset);
    QFETCH(QString, change);
    QFETCH(double, bytesPerToken);
    ModelSpec m = findModelPreset(preset.toStdString())->model;
    if (change == "nodropout")
        m.dropout = false;
    if (change == "flash")
        m.attentionImpl = AttentionImpl::flash;
    if (change == "gqa")
        m.kvHeads = 3;
    double sum = 0;
    for (const ActivationTensor& t : layerActivationLedger(m, StorageType::bf16, Recompute::none))
        sum += t.elementsPerToken * t.bytesPerElement;
    QCOMPARE(sum, bytesPerToken);
    // And the accounting's total: L layers of s tokens plus the fp32 logits.
    AccountingInput in;
    in.model = m;
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpu = "H200";
    const AccountingResult r = run(in);
    QCOMPARE(r.memory.activations.value, m.layers * m.seq * bytesPerToken + 4 * m.seq * m.vocab);
}

void TestModelArchitectures::fp32DropoutMasksAreOneByte_data() {
    QTest::addColumn<QString>("recipe");
    QTest::addColumn<double>("perLayerPerSample"); // bytes dropout adds to one layer of one sequence
    // GPT-2 small (h 768, a 12, s 1024). Dropout keeps three torch.bool masks (attention probabilities
    // a·s² and the two s·h outputs) and the dropped-out probabilities a·s² in the activations' dtype.
    // fp32: 1·(2sh + as²) + 4·as² = 2sh + 5as²; bf16: 1·(2sh + as²) + 2·as² = 2sh + 3as².
    const double sh = 1024.0 * 768, as2 = 12.0 * 1024 * 1024;
    QTest::newRow("fp32: 2sh + 5as²") << "fp32" << 2 * sh + 5 * as2;
    QTest::newRow("mixed-bf16: 2sh + 3as²") << "mixed-bf16" << 2 * sh + 3 * as2;
}

void TestModelArchitectures::fp32DropoutMasksAreOneByte() {
    QFETCH(QString, recipe);
    QFETCH(double, perLayerPerSample);
    AccountingInput on;
    on.model = findModelPreset("gpt2-small")->model;
    on.precision = *precisionRecipeFromName(recipe.toStdString());
    AccountingInput off = on;
    off.model.dropout = false;
    const double difference = run(on).memory.activations.value - run(off).memory.activations.value;
    QCOMPARE(difference, on.model.layers * perLayerPerSample);
    for (const ActivationTensor& t : layerActivationLedger(on.model, StorageType::fp32, Recompute::none))
        if (t.dtype == "mask")
            QCOMPARE(t.bytesPerElement, 1.0);
}

void TestModelArchitectures::familiesRoundTrip() {
    for (const ModelPreset& p : modelPresets()) {
        const auto family = architectureFamilyOf(p.model);
        QVERIFY2(family, p.id.data());
        QCOMPARE(withArchitectureFamily(p.model, *family), p.model);
    }
    ModelSpec mixed = findModelPreset("llama3-8b")->model;
    mixed.dropout = true;
    QVERIFY(!architectureFamilyOf(mixed));
}

void TestModelArchitectures::architectureValidation_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("field");
    QTest::newRow("kv-heads not dividing heads") << "kv5"
                                                 << "kv-heads";
    QTest::newRow("kv-heads above heads") << "kv64"
                                          << "kv-heads";
    QTest::newRow("top-k above experts") << "topk9"
                                         << "top-k";
    QTest::newRow("experts 0") << "experts0"
                               << "experts";
    QTest::newRow("ffn-dim fractional") << "ffn1.5"
                                        << "ffn-dim";
}

void TestModelArchitectures::architectureValidation() {
    QFETCH(QString, change);
    QFETCH(QString, field);
    AccountingInput in = presetInput("mixtral-8x7b");
    if (change == "kv5")
        in.model.kvHeads = 5;
    if (change == "kv64")
        in.model.kvHeads = 64;
    if (change == "topk9")
        in.model.topK = 9;
    if (change == "experts0")
        in.model.experts = 0;
    if (change == "ffn1.5")
        in.model.ffnDim = 1.5;
    const InputError e = validate(in);
    QCOMPARE(QString::fromStdString(e.field), field);
    QVERIFY(!e.message.empty());
}

QTEST_APPLESS_MAIN(TestModelArchitectures)
#include "tst_model_architectures.moc"
