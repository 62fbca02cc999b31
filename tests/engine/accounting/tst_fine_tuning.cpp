// SPDX-License-Identifier: GPL-3.0-or-later
// Fine-tuning against published and hand-derived numbers: PEFT's trainable counts, QLoRA's NF4 storage,
// offloading moving the optimizer's states to the host byte for byte, LoRA's FLOPs, and the step's peak.
// The matmul FLOPs and parameter counts are also checked against plain PyTorch models with adapters in
// tests/cli/lora_torch_check.py.
#include "engine/accounting/accounting.h"
#include "engine/accounting/fine_tuning.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/setup_presets.h"

#include <QtTest>

using namespace napkin;

namespace {

ModelSpec modelNamed(const QString& id) {
    const std::string name = id.toStdString();
    if (const ModelPreset* p = findModelPreset(name))
        return p->model;
    const ZooModel* z = findZooModel(name);
    if (!z)
        qFatal("no model %s", name.c_str());
    return zooModelConfig(*z).config->model;
}

AccountingInput lora(const ModelSpec& model, FineTuneMethod method, double rank, const char* targets) {
    AccountingInput in;
    in.model = model;
    in.precision = PrecisionRecipe::mixedBf16;
    in.fineTuning.method = method;
    in.fineTuning.rank = rank;
    in.fineTuning.targets = *loraTargetsFromText(targets);
    return in;
}

AccountingResult run(const AccountingInput& in) {
    const InputError error = validate(in);
    if (!error.ok())
        qFatal("invalid input: %s: %s", error.field.c_str(), error.message.c_str());
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

} // namespace

class TestFineTuning : public QObject {
    Q_OBJECT
private slots:
    void trainableParameters_data();
    void trainableParameters();
    void nf4Storage();
    void qloraFrozenWeights();
    void statesOnlyForAdapters();
    void offloadMovesStatesToHost_data();
    void offloadMovesStatesToHost();
    void loraFlopsByHand();
    void timelineGradientsAreTheAdapters();
    void qloraOn24GbPreset();
    void refusals_data();
    void refusals();
    void targetNames();
};

void TestFineTuning::trainableParameters_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("rank");
    QTest::addColumn<QString>("targets");
    QTest::addColumn<double>("trainable");
    QTest::addColumn<double>("all");
    // PEFT's print_trainable_parameters() on meta-llama/Meta-Llama-3-8B, LoraConfig(r=16,
    // target_modules="all-linear"): "trainable params: 41,943,040 || all params: 8,072,204,288".
    QTest::newRow("Llama 3 8B r16 all-linear")
        << "llama3-8b" << 16.0 << "all-linear" << 41943040.0 << 8072204288.0;
    // The same model, r = 8 on q_proj and v_proj (PEFT's default targets for Llama):
    // "trainable params: 3,407,872 || all params: 8,033,669,120".
    QTest::newRow("Llama 3 8B r8 q,v") << "llama3-8b" << 8.0 << "q_proj,v_proj" << 3407872.0 << 8033669120.0;
    // mistralai/Mistral-7B-v0.1, r = 16, all-linear: "trainable params: 41,943,040 || all params:
    // 7,283,675,136" (the base: 7,241,732,096, its model card's safetensors total).
    QTest::newRow("Mistral 7B r16 all-linear")
        << "mistral-7b-v0.1" << 16.0 << "all-linear" << 41943040.0 << 7283675136.0;
    // GPT-2 small (124,439,808), r = 8 on PEFT's c_attn (768 → 2304, q, k and v fused):
    // 12 × 8 × (768 + 2304) = 294,912; separate q and v give 12 × 8 × 2 × (768 + 768), the same count.
    // PEFT: "trainable params: 294,912 || all params: 124,734,720".
    QTest::newRow("GPT-2 r8 q,v") << "gpt2-small" << 8.0 << "q,v" << 294912.0 << 124734720.0;
}

void TestFineTuning::trainableParameters() {
    QFETCH(QString, model);
    QFETCH(double, rank);
    QFETCH(QString, targets);
    QFETCH(double, trainable);
    QFETCH(double, all);
    const AccountingInput in =
        lora(modelNamed(model), FineTuneMethod::lora, rank, targets.toUtf8().constData());
    const AccountingResult r = run(in);
    QCOMPARE(r.trainableParameters, trainable);
    QVERIFY(r.fineTune);
    QCOMPARE(r.fineTune->allParameters.value, all);
    QCOMPARE(r.fineTune->frozenParameters.value, r.parameters.total);
}

void TestFineTuning::nf4Storage() {
    // QLoRA (Dettmers et al. 2023), section 3: 4-bit codes; double quantisation stores the absmax per
    // 64 weights in 8 bits and one fp32 constant per 256 blocks: 8/64 + 32/(64·256) = 0.127 bits on top.
    QCOMPARE(nf4BytesPerWeight(), 0.515869140625);
    QCOMPARE(nf4BytesPerWeight() * 8 - 4, 8.0 / 64 + 32.0 / (64 * 256));
}

void TestFineTuning::qloraFrozenWeights() {
    // Llama 3 8B: 8,030,261,248 parameters, of which the two 128,256 × 4096 embeddings (input and the
    // untied head), 65 RMSNorm weight vectors of 4096 stay bf16 (1,050,939,392); the layers' matrices
    // (6,979,321,856) are NF4: 6,979,321,856 × 0.515869140625 + 1,050,939,392 × 2 = 5,702,295,552 B.
    const AccountingResult r = run(lora(modelNamed("llama3-8b"), FineTuneMethod::qlora, 16, "all-linear"));
    QCOMPARE(r.fineTune->frozenWeightBytes.value, 5702295552.0);
    // On the GPU: the frozen base plus the bf16 adapters.
    QCOMPARE(r.memory.parameters.value, 5702295552.0 + 41943040.0 * 2);
    const AccountingResult plain = run(lora(modelNamed("llama3-8b"), FineTuneMethod::lora, 16, "all-linear"));
    QCOMPARE(plain.fineTune->frozenWeightBytes.value, 8030261248.0 * 2);
}

void TestFineTuning::statesOnlyForAdapters() {
    // mixed-bf16 AdamW: 2 (grad) + 4 (master) + 8 (two fp32 moments) bytes per trainable parameter only.
    const AccountingResult r = run(lora(modelNamed("llama3-8b"), FineTuneMethod::lora, 16, "all-linear"));
    QCOMPARE(r.memory.gradients.value, 41943040.0 * 2);
    QCOMPARE(r.memory.masterWeights.value, 41943040.0 * 4);
    QCOMPARE(r.memory.optimizerState.value, 41943040.0 * 8);
}

void TestFineTuning::offloadMovesStatesToHost_data() {
    QTest::addColumn<int>("method");
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("gpus");
    QTest::newRow("full, one GPU") << int(FineTuneMethod::full) << 0 << 1.0;
    QTest::newRow("full, ZeRO-2 over 8") << int(FineTuneMethod::full) << 2 << 8.0;
    QTest::newRow("qlora, one GPU") << int(FineTuneMethod::qlora) << 0 << 1.0;
}

void TestFineTuning::offloadMovesStatesToHost() {
    QFETCH(int, method);
    QFETCH(int, zero);
    QFETCH(double, gpus);
    AccountingInput in = lora(modelNamed("llama3-8b"), FineTuneMethod(method), 16, "all-linear");
    in.zeroStage = zero;
    in.gpus = gpus;
    const AccountingResult onGpu = run(in);
    in.fineTuning.offload = Offload::optimizer;
    const AccountingResult offloaded = run(in);
    const double states = onGpu.memory.masterWeights.value + onGpu.memory.optimizerState.value;
    QVERIFY(states > 0);
    QCOMPARE(offloaded.fineTune->hostBytes.value, states);
    QCOMPARE(offloaded.memory.masterWeights.value, 0.0);
    QCOMPARE(offloaded.memory.optimizerState.value, 0.0);
    QCOMPARE(onGpu.memory.total.value - offloaded.memory.total.value, states);
    QCOMPARE(offloaded.memory.parameters.value, onGpu.memory.parameters.value);
    QCOMPARE(offloaded.memory.gradients.value, onGpu.memory.gradients.value);
    // The link: the gradients out, the updated trainable weights (bf16) back, over PCIe Gen5's 64 GB/s.
    QCOMPARE(offloaded.fineTune->linkBytesToHost.value, onGpu.memory.gradients.value);
    QCOMPARE(offloaded.fineTune->linkBytesToGpu.value,
             offloaded.trainableParameters * 2 / (zero >= 1 ? gpus : 1.0));
    QVERIFY(offloaded.hostLinkSecondsPerStep);
    QCOMPARE(offloaded.hostLinkSecondsPerStep->value,
             std::max(offloaded.fineTune->linkBytesToHost.value, offloaded.fineTune->linkBytesToGpu.value) /
                 64e9);
}

void TestFineTuning::loraFlopsByHand() {
    // d = 4, one head, L = 2, SwiGLU f = 8, V = 10, s = 3, untied, no biases; r = 1 on q and v; causal.
    // Per layer 160 matrix weights (q, k, v, o 16 each; gate, up, down 32 each), head 40: base forward
    // 2·3·(2·160 + 40) = 2160; scores per layer 4·b·s²·d/2 = 72, 144 in all; adapters 2·3·(8 + 8) per
    // layer = 96, 192 in all. Forward 2160 + 144 + 192 = 2496.
    // Backward: dL/dx through every frozen matmul 2160, both score inputs 2 × 144, adapters 2 × 192; less
    // what layer 1 needs not: its q, k, v inputs 2·3·4·12 = 288, the q and v adapters' dx 2 × 2·3·4 = 48,
    // and dK (k has no adapter) 36: 2160 + 288 + 384 − 372 = 2460.
    AccountingInput in;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = 4;
    in.model.heads = 1;
    in.model.layers = 2;
    in.model.ffnDim = 8;
    in.model.mlp = MlpKind::swiglu;
    in.model.norm = NormKind::rmsnorm;
    in.model.bias = false;
    in.model.embeddings = EmbeddingTying::untied;
    in.model.position = PositionKind::rope;
    in.model.vocab = 10;
    in.model.seq = 3;
    in.model.dropout = false;
    in.fineTuning.method = FineTuneMethod::lora;
    in.fineTuning.rank = 1;
    in.fineTuning.targets = {LoraTarget::q, LoraTarget::v};
    const AccountingResult r = run(in);
    QCOMPARE(r.flopsPerStep.forward, 2496.0);
    QCOMPARE(r.flopsPerStep.backward, 2460.0);
    QCOMPARE(r.trainableParameters, 2.0 * (8 + 8));
    // Time at an MFU divides these model FLOPs, not 6·N·T.
    QCOMPARE(r.flopsPerToken.value, (2496.0 + 2460.0) / 3);
}

void TestFineTuning::timelineGradientsAreTheAdapters() {
    const AccountingInput in = lora(modelNamed("gpt2-small"), FineTuneMethod::lora, 8, "q,v");
    const AccountingResult r = run(in);
    const MemoryTimeline t = memoryTimeline(in, r);
    double most = 0;
    for (const TimelineEvent& e : t.events) {
        most = std::max(most, e.bytes.gradients);
        if (e.event.phase == StepPhase::backward && e.event.part == StepPart::head)
            QCOMPARE(e.bytes.gradients, 0.0); // the frozen head gets none
    }
    QCOMPARE(most, 294912.0 * 2);
    QCOMPARE(most, r.memory.gradients.value);
    QCOMPARE(t.peakBytes, r.peakMemory.value);
    // The adapters' x·A is a ledger row: r per adapted matrix per token.
    bool row = false;
    for (const ActivationLedgerRow& a : r.activations.ledger)
        row = row || (a.name.find("LoRA") != std::string::npos && a.elements == 2 * 8 * 1024);
    QVERIFY(row);
}

void TestFineTuning::qloraOn24GbPreset() {
    // The question: Llama 3 8B, QLoRA r = 16, batch 1, 2048 tokens, gradient checkpointing, 24 GB.
    const SetupPreset* p = findSetupPreset("llama3-8b-qlora-24gb");
    QVERIFY(p);
    const AccountingResult r = run(p->input);
    QVERIFY(r.fits);
    QVERIFY(r.peakMemory.value < 24e9);
    QVERIFY(r.peakMemory.value >=
            r.memory.parameters.value + r.memory.masterWeights.value + r.memory.optimizerState.value);
    QCOMPARE(r.trainableParameters, 41943040.0);
    // Full fine-tuning of the same model does not fit a 24 GB GPU (16 B per parameter alone is 128 GB).
    AccountingInput full = p->input;
    full.fineTuning = {};
    QVERIFY(!run(full).fits);
}

void TestFineTuning::refusals_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("change");
    QTest::newRow("rank 0") << "lora-rank"
                            << "rank0";
    QTest::newRow("rank above the side") << "lora-rank"
                                         << "rank5000";
    QTest::newRow("alpha 0") << "lora-alpha"
                             << "alpha0";
    QTest::newRow("no targets") << "lora-targets"
                                << "empty";
    QTest::newRow("tensor parallel") << "finetune"
                                     << "tp";
    QTest::newRow("dense model") << "finetune"
                                 << "dense";
    QTest::newRow("gate on GELU") << "lora-targets"
                                  << "gelu-gate";
}

void TestFineTuning::refusals() {
    QFETCH(QString, field);
    QFETCH(QString, change);
    AccountingInput in = lora(modelNamed("llama3-8b"), FineTuneMethod::lora, 16, "all-linear");
    if (change == "rank0")
        in.fineTuning.rank = 0;
    else if (change == "rank5000")
        in.fineTuning.rank = 5000;
    else if (change == "alpha0")
        in.fineTuning.alpha = 0;
    else if (change == "empty")
        in.fineTuning.targets.clear();
    else if (change == "tp") {
        in.gpus = 2;
        in.parallel.tp = 2;
    } else if (change == "dense") {
        in.model = ModelSpec{};
        in.model.parameters = 1e9;
    } else if (change == "gelu-gate") {
        in.model = modelNamed("gpt2-small");
        in.fineTuning.targets = {LoraTarget::gate};
    }
    const InputError e = validate(in);
    QVERIFY(!e.ok());
    QCOMPARE(QString::fromStdString(e.field), field);
}

void TestFineTuning::targetNames() {
    QCOMPARE(loraTargetsText(*loraTargetsFromText("v_proj,q_proj")), std::string("q,v"));
    QCOMPARE(loraTargetsText(*loraTargetsFromText("all-linear")), std::string("all-linear"));
    QVERIFY(!loraTargetsFromText("q,q"));
    QVERIFY(!loraTargetsFromText("q,,v"));
    QVERIFY(!loraTargetsFromText("lm_head"));
    QVERIFY(!loraTargetsFromText(""));
}

QTEST_APPLESS_MAIN(TestFineTuning)
#include "tst_fine_tuning.moc"
