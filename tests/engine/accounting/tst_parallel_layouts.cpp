// SPDX-License-Identifier: GPL-3.0-or-later
// Tensor, pipeline, sequence, context and expert parallelism: model-state splits, the 1F1B bubble and
// in-flight micro-batches, the communication ledger, refusals, and the advice when nothing fits. Every
// expected value is derived by hand in the comments.
#include "engine/accounting/accounting.h"
#include "engine/models/model_presets.h"
#include "engine/accounting/parameter_sharding.h"
#include "engine/numerics/quantity_format.h"

#include <QtTest>

using namespace napkin;

namespace {

AccountingResult run(const AccountingInput& in) {
    const InputError error = validate(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

AccountingInput preset(const char* id, double gpus, double tp = 1, double pp = 1, bool sp = false) {
    AccountingInput in;
    in.model = findModelPreset(id)->model;
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpus = gpus;
    in.parallel.tp = tp;
    in.parallel.pp = pp;
    in.parallel.sp = sp;
    return in;
}

const CommunicationItem* item(const AccountingResult& r, const std::string& name) {
    for (const CommunicationItem& i : r.communication.items)
        if (i.name == name)
            return &i;
    return nullptr;
}

} // namespace

class TestParallelLayouts : public QObject {
    Q_OBJECT
private slots:
    void bubbleFraction_data();
    void bubbleFraction();
    void parametersOnGpu_data();
    void parametersOnGpu();
    void zeroTimesTpTimesPp_data();
    void zeroTimesTpTimesPp();
    void firstStageHoldsInFlightMicroBatches();
    void flopsPerGpuAndMicroBatches();
    void communication_data();
    void communication();
    void crossNodeGroupsUseTheNetwork();
    void largestModelPooled();
    void badCombinations_data();
    void badCombinations();
    void adviceWhenBatchOneDoesNotFit();
    void dataParallelOnlyKeepsEarlierAnswers();
    void unevenStages_data();
    void unevenStages();
    void unevenStagesAsEvenAreEven();
    void unevenStagesRefused_data();
    void unevenStagesRefused();
};

void TestParallelLayouts::bubbleFraction_data() {
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("m");
    QTest::addColumn<double>("expected");
    // Narayanan et al. 2021, eq. 1: (p − 1)/(m + p − 1).
    QTest::newRow("no pipeline: 0") << 1.0 << 1.0 << 0.0;
    QTest::newRow("p 4, m 8: 3/11") << 4.0 << 8.0 << 3.0 / 11;
    QTest::newRow("p 8, m 1: 7/8") << 8.0 << 1.0 << 7.0 / 8;
    QTest::newRow("p 2, m 64: 1/65") << 2.0 << 64.0 << 1.0 / 65;
}

void TestParallelLayouts::bubbleFraction() {
    QFETCH(double, p);
    QFETCH(double, m);
    QFETCH(double, expected);
    AccountingInput in = preset("llama3-8b", p, 1, p);
    in.parallel.microbatches = m;
    QCOMPARE(run(in).pipelineBubbleFraction.value, expected);
}

void TestParallelLayouts::parametersOnGpu_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("tp");
    QTest::addColumn<double>("pp");
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("last");
    QTest::newRow("Llama 3 8B whole") << "llama3-8b" << 1.0 << 1.0 << 8030261248.0 << 8030261248.0;
    // Llama 3 8B, tp 8: a layer's matrices (41,943,040 + 176,160,768)/8 plus its two RMSNorms 8,192
    // (replicated) = 27,271,168; 32 layers = 872,677,376; embedding and output 525,336,576/8 = 65,667,072
    // each; final norm 4,096: 1,004,015,616.
    QTest::newRow("Llama 3 8B tp 8") << "llama3-8b" << 8.0 << 1.0 << 1004015616.0 << 1004015616.0;
    // tp 8 × pp 4: 8 layers = 218,169,344; first + embedding = 283,836,416; last + norm + output =
    // 283,840,512.
    QTest::newRow("Llama 3 8B tp 8 pp 4") << "llama3-8b" << 8.0 << 4.0 << 283836416.0 << 283840512.0;
    // GPT-2 small (d 768), tp 2 × pp 2: attention (4d² + 3d)/2 + d = 1,181,568 (the output bias is
    // replicated); MLP (8d² + 4d)/2 + d = 2,361,600; LayerNorms 4d = 3,072: 3,546,240 per layer, 6 per stage
    // = 21,277,440. First: + V·d/2 = 19,298,688 + positions S·d = 786,432 (replicated) = 41,362,560. Last:
    // + final LayerNorm 1,536 + the tied embedding's copy 19,298,688 = 40,577,664.
    QTest::newRow("GPT-2 small tp 2 pp 2") << "gpt2-small" << 2.0 << 2.0 << 41362560.0 << 40577664.0;
    // Mixtral, ep 8 (tp 1): 1 of 8 experts per layer on each GPU. Dense part 32 × (41,943,040 + 32,768
    // + 8,192) + 2 × 131,072,000 + 4,096 = 1,605,636,096; experts 32 × 176,160,768 = 5,637,144,576:
    // 7,242,780,672.
    QTest::newRow("Mixtral ep 8") << "mixtral-8x7b" << 1.0 << 1.0 << 7242780672.0 << 7242780672.0;
}

void TestParallelLayouts::parametersOnGpu() {
    QFETCH(QString, model);
    QFETCH(double, tp);
    QFETCH(double, pp);
    QFETCH(double, first);
    QFETCH(double, last);
    ParallelLayout l;
    l.tp = tp;
    l.pp = pp;
    if (model == "mixtral-8x7b")
        l.ep = 8;
    const ModelSpec& m = findModelPreset(model.toStdString())->model;
    QCOMPARE(napkin::parametersOnGpu(m, l, PipelineStage::first).total(), first);
    QCOMPARE(napkin::parametersOnGpu(m, l, PipelineStage::last).total(), last);
}

void TestParallelLayouts::zeroTimesTpTimesPp_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("params");
    QTest::addColumn<double>("grads");
    QTest::addColumn<double>("masterAndState");
    // Llama 3 8B, tp 8 × pp 4 on 64 GPUs: dp 2; the first stage's GPU holds P = 283,836,416 weights
    // (its activations make it the most loaded). mixed-bf16 AdamW: 2 + 2 + 4 + 8 bytes, ZeRO over dp = 2.
    const double P = 283836416;
    QTest::newRow("ZeRO-0: 16P") << 0 << 2 * P << 2 * P << 12 * P;
    QTest::newRow("ZeRO-1: 4P + 12P/2") << 1 << 2 * P << 2 * P << 6 * P;
    QTest::newRow("ZeRO-2: 2P + 14P/2") << 2 << 2 * P << P << 6 * P;
    QTest::newRow("ZeRO-3: 16P/2") << 3 << P << P << 6 * P;
}

void TestParallelLayouts::zeroTimesTpTimesPp() {
    QFETCH(int, zero);
    QFETCH(double, params);
    QFETCH(double, grads);
    QFETCH(double, masterAndState);
    AccountingInput in = preset("llama3-8b", 64, 8, 4, true);
    in.parallel.microbatches = 8;
    in.zeroStage = zero;
    const AccountingResult r = run(in);
    QCOMPARE(r.memoryStage.value_or(PipelineStage::last), PipelineStage::first);
    QCOMPARE(r.parametersOnGpu.value, 283836416.0);
    QCOMPARE(r.memory.parameters.value, params);
    QCOMPARE(r.memory.gradients.value, grads);
    QCOMPARE(r.memory.masterWeights.value + r.memory.optimizerState.value, masterAndState);
}

void TestParallelLayouts::firstStageHoldsInFlightMicroBatches() {
    // Llama 3 8B, tp 8 + sp, pp 4, m 8, bf16, flash: one layer and micro-batch holds 168,064 B per token
    // (tst_model_architectures) / 8 = 21,008 B × 8192 tokens = 172,097,536 B. The first stage keeps
    // min(p, m) = 4 micro-batches of its 8 layers: 32 × 172,097,536 = 5,507,121,152 B — as much as all
    // 32 layers of one micro-batch (Korthikanti et al. 2022, section 4.2.3).
    AccountingInput in = preset("llama3-8b", 32, 8, 4, true);
    in.parallel.microbatches = 8;
    const AccountingResult r = run(in);
    QCOMPARE(r.activations.layers, 8.0);
    QCOMPARE(r.activations.microBatchesInFlight, 4.0);
    QCOMPARE(r.memory.activations.value, 32 * 172097536.0);
    // With m = 2 < p only 2 micro-batches are ever in flight.
    in.parallel.microbatches = 2;
    QCOMPARE(run(in).memory.activations.value, 16 * 172097536.0);
}

void TestParallelLayouts::flopsPerGpuAndMicroBatches() {
    AccountingInput in = preset("gpt2-small", 1);
    const AccountingResult one = run(in);
    in.parallel.microbatches = 4; // gradient accumulation: 4 × the FLOPs, one micro-batch's activations
    const AccountingResult four = run(in);
    QCOMPARE(four.flopsPerStep.total, 4 * one.flopsPerStep.total);
    QCOMPARE(four.memory.activations.value, one.memory.activations.value);
    QCOMPARE(four.flopsPerToken.value, one.flopsPerToken.value);
    in.parallel.tp = 2; // a replica of 2 GPUs does the same work: each does half
    in.gpus = 2;
    const AccountingResult split = run(in);
    QCOMPARE(split.flopsPerStep.total, four.flopsPerStep.total / 2);
    QCOMPARE(split.flopsPerToken.value, one.flopsPerToken.value);
    QCOMPARE(split.globalBatch.value, 4.0); // batch 1 × 4 micro-batches × dp 1
}

void TestParallelLayouts::communication_data() {
    QTest::addColumn<QString>("setup");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("bandwidth"); // 0: no time expected
    // GPT-2 small on 8 H100s, fp32, ZeRO-0: ring all-reduce 2·(n−1)/n of 124,439,808 × 4 B
    // = 2 × 7/8 × 497,759,232 = 871,078,656 B, inside one NVLink node (450 GB/s per direction).
    QTest::newRow("DP all-reduce") << "dp8"
                                   << "gradient all-reduce" << 871078656.0 << 450e9;
    // ZeRO-3, mixed-bf16: parameters gathered forward and backward, gradients reduce-scattered:
    // each 7/8 × 124,439,808 × 2 B = 217,769,664 B (3 × = 653,308,992, Rajbhandari et al.'s 1.5× DP).
    QTest::newRow("ZeRO-3 gather") << "zero3"
                                   << "parameter all-gather (forward)" << 217769664.0 << 450e9;
    QTest::newRow("ZeRO-3 scatter") << "zero3"
                                    << "gradient reduce-scatter" << 217769664.0 << 450e9;
    // ... accumulating 4 micro-batches: gathered and reduced for each (DeepSpeed ZeRO-3, FSDP without no_sync)
    // = 4 × 217,769,664 = 871,078,656 B; ZeRO-2 reduce-scatters each micro-batch's gradients too.
    QTest::newRow("ZeRO-3 gather, 4 micro-batches") << "zero3m4"
                                                    << "parameter all-gather (backward)" << 871078656.0 << 450e9;
    QTest::newRow("ZeRO-2 scatter, 4 micro-batches") << "zero2m4"
                                                     << "gradient reduce-scatter" << 871078656.0 << 450e9;
    // GPT-3, tp 8 + sp, one micro-batch: per layer 8 × 7/8 × s·b·h·2 B = 7 × 50,331,648 = 352,321,536 B;
    // 96 layers = 33,822,867,456 B (the same volume with or without sp; Korthikanti et al. 2022, 4.2.2).
    QTest::newRow("TP layers") << "gpt3tp8"
                               << "all-gathers and reduce-scatters in the layers" << 33822867456.0 << 450e9;
    // ... and the vocabulary-parallel embedding's and output layer's: 2 × 7/8 × 50,331,648 = 88,080,384 each.
    QTest::newRow("TP embedding") << "gpt3tp8"
                                  << "vocabulary-parallel embedding" << 88080384.0 << 450e9;
    // Llama 3 8B, tp 8 + sp, pp 4, m 8: the first stage sends 8 activations of s·b·h·2 B / 8 (sequence
    // parallel) = 8 × 8,388,608 = 67,108,864 B to the next stage, over the network (stages 8·dp apart).
    QTest::newRow("PP activations") << "pp4"
                                    << "activations to the next stage" << 67108864.0 << 50e9;
    // ... interleaved in v = 2 chunks of 4 layers per GPU: each micro-batch crosses every GPU twice, so v times
    // the sends ("the amount of communication also increases by v", Narayanan et al. 2021, section 2.2.2):
    // 8 × 2 × 8,388,608 = 134,217,728 B.
    QTest::newRow("PP activations, interleaved") << "pp4v2"
                                                 << "activations to the next stage" << 134217728.0 << 50e9;
    // Llama 3 8B, cp 2 (flash): per layer 3 × (cp − 1) × 2·s·b·d_kv·2 B/(cp·t) = 3 × 16,777,216 B; 32 layers
    // = 1,610,612,736 B.
    QTest::newRow("CP ring") << "cp2"
                             << "K/V ring (forward; K/V and their gradients backward)" << 1610612736.0
                             << 450e9;
    // Mixtral, ep 8, s 4096: per layer 4 all-to-alls × 7/8 × K·s·b·h·2 B = 4 × 7/8 × 67,108,864
    // = 234,881,024 B; 32 layers = 7,516,192,768 B.
    QTest::newRow("EP all-to-all") << "ep8"
                                   << "token all-to-alls (dispatch and combine)" << 7516192768.0 << 450e9;
}

void TestParallelLayouts::communication() {
    QFETCH(QString, setup);
    QFETCH(QString, name);
    QFETCH(double, bytes);
    QFETCH(double, bandwidth);
    AccountingInput in;
    if (setup == "dp8") {
        in = preset("gpt2-small", 8);
        in.precision = PrecisionRecipe::fp32;
    } else if (setup == "zero3") {
        in = preset("gpt2-small", 8);
        in.zeroStage = 3;
    } else if (setup == "zero3m4" || setup == "zero2m4") {
        in = preset("gpt2-small", 8);
        in.zeroStage = setup == "zero3m4" ? 3 : 2;
        in.parallel.microbatches = 4;
    } else if (setup == "gpt3tp8") {
        in = preset("gpt3-175b", 8, 8, 1, true);
    } else if (setup == "pp4") {
        in = preset("llama3-8b", 32, 8, 4, true);
        in.parallel.microbatches = 8;
    } else if (setup == "pp4v2") {
        in = preset("llama3-8b", 32, 8, 4, true);
        in.parallel.microbatches = 8;
        in.parallel.virtualStages = 2;
    } else if (setup == "cp2") {
        in = preset("llama3-8b", 2);
        in.parallel.cp = 2;
    } else if (setup == "ep8") {
        in = preset("mixtral-8x7b", 8);
        in.model.seq = 4096;
        in.parallel.ep = 8;
    }
    const AccountingResult r = run(in);
    const CommunicationItem* i = item(r, name.toStdString());
    QVERIFY2(i, qPrintable(name));
    QCOMPARE(i->bytes, bytes);
    QVERIFY(i->seconds);
    QCOMPARE(*i->seconds, bytes / bandwidth);
    QVERIFY2(QString::fromStdString(i->formula).contains(QString::fromStdString(formatNumber(bytes))),
             i->formula.c_str());
    double total = 0;
    for (const CommunicationItem& each : r.communication.items)
        total += each.bytes;
    QCOMPARE(r.communication.total.bytes, total);
}

void TestParallelLayouts::crossNodeGroupsUseTheNetwork() {
    // tp 8 fills a DGX node's NVLink; the data-parallel ranks are 8 GPUs apart, on other nodes.
    AccountingInput in = preset("gpt3-175b", 64, 8, 1, true);
    in.zeroStage = 1;
    const AccountingResult r = run(in);
    const CommunicationItem* dp = item(r, "gradient reduce-scatter");
    QVERIFY(dp);
    QCOMPARE(*dp->seconds, dp->bytes / 50e9);
    QVERIFY(QString::fromStdString(dp->link).startsWith("network"));
    // Expert parallelism is carved out of the data-parallel ranks, which sit tp·cp apart: Mixtral with cp 2
    // on 16 GPUs (dp 8) puts its 8 expert-parallel ranks 2 apart, spanning 16 GPUs, two nodes.
    AccountingInput moe = preset("mixtral-8x7b", 16);
    moe.parallel.cp = 2;
    moe.parallel.ep = 8;
    const AccountingResult across = run(moe);
    const CommunicationItem* a2a = item(across, "token all-to-alls (dispatch and combine)");
    QVERIFY(a2a);
    QVERIFY2(QString::fromStdString(a2a->link).startsWith("network"), a2a->link.c_str());
    moe.parallel.ep = 4; // 4 ranks 2 apart: 8 GPUs, one node
    const AccountingResult within = run(moe);
    const CommunicationItem* inNode = item(within, "token all-to-alls (dispatch and combine)");
    QVERIFY(inNode);
    QVERIFY2(QString::fromStdString(inNode->link).startsWith("NVLink"), inNode->link.c_str());
    // A GPU whose catalog entry has no figures leaves the time unknown rather than guessing.
    in.gpu = "L40S";
    in.precision = PrecisionRecipe::mixedBf16;
    const AccountingResult l40s = run(in);
    QVERIFY(!l40s.communication.total.seconds);
    QVERIFY(l40s.communication.total.bytes > 0);
}

void TestParallelLayouts::largestModelPooled() {
    // The lecture: 8 × 80e9 B / 16 B = 40e9 parameters pooled, whatever the layout; each GPU alone
    // (ZeRO-0) holds 80e9 / 16 = 5e9.
    AccountingInput in;
    in.model.kind = ModelKind::dense;
    in.model.parameters = 1e9;
    in.gpus = 8;
    in.overheads = datasheetOverheads(); // the lecture's convention: 80 GB = 80e9 B, no overheads
    const AccountingResult r = run(in);
    QCOMPARE(r.maxParametersPooled.value, 40e9);
    QCOMPARE(r.maxParameters.value, 5e9);
}

void TestParallelLayouts::badCombinations_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("field");
    QTest::newRow("sp without tp") << "sp"
                                   << "sp";
    QTest::newRow("tp 5 does not divide 32 heads") << "tp5"
                                                   << "tp";
    QTest::newRow("tp 16 does not divide 8 kv-heads") << "tp16"
                                                      << "tp";
    QTest::newRow("pp 5 does not divide 32 layers") << "pp5"
                                                    << "pp";
    QTest::newRow("dp not whole: 12 GPUs, tp 8") << "gpus12"
                                                 << "gpus";
    QTest::newRow("cp with eager attention") << "cpEager"
                                             << "cp";
    QTest::newRow("ep without experts") << "ep2"
                                        << "ep";
    QTest::newRow("microbatches 0") << "m0"
                                    << "microbatches";
    QTest::newRow("tp on a dense model") << "denseTp"
                                         << "tp";
}

void TestParallelLayouts::badCombinations() {
    QFETCH(QString, change);
    QFETCH(QString, field);
    AccountingInput in = preset("llama3-8b", 16);
    if (change == "sp")
        in.parallel.sp = true;
    if (change == "tp5")
        in.parallel.tp = 5;
    if (change == "tp16")
        in.parallel.tp = 16;
    if (change == "pp5")
        in.parallel.pp = 5;
    if (change == "gpus12") {
        in.gpus = 12;
        in.parallel.tp = 8;
    }
    if (change == "cpEager") {
        in.parallel.cp = 2;
        in.model.attentionImpl = AttentionImpl::eager;
    }
    if (change == "ep2")
        in.parallel.ep = 2;
    if (change == "m0")
        in.parallel.microbatches = 0;
    if (change == "denseTp") {
        in.model = ModelSpec{};
        in.model.parameters = 1e9;
        in.parallel.tp = 2;
    }
    const InputError e = validate(in);
    QCOMPARE(QString::fromStdString(e.field), field);
    QVERIFY(!e.message.empty());
}

void TestParallelLayouts::adviceWhenBatchOneDoesNotFit() {
    // GPT-3 175B, one sequence per H100, ZeRO-3 over 1024, selective recompute: activations
    // 96 × 34·s·h·… = 82.6 GB alone exceed 80 GB, so the largest batch is 0 (the example).
    AccountingInput in = preset("gpt3-175b", 1024);
    in.zeroStage = 3;
    in.recompute = Recompute::selective;
    const AccountingResult r = run(in);
    QCOMPARE(r.maxBatch->value, 0.0);
    QVERIFY(qAbs(r.memory.activations.value - 82.6e9) < 0.05e9);
    const QString advice = QString::fromStdString(r.fitAdvice);
    QVERIFY2(advice.contains("full recompute"), qPrintable(advice));
    // Halving the activations with tp 2 + sp fits, on the same 1024 GPUs (dp 512).
    QVERIFY2(advice.contains("tp 2 × pp 1, sequence parallel (2 GPUs per replica, 1024 in all)"),
             qPrintable(advice));
    // Without ZeRO the states (16 B × 1.75e11 = 2.8 TB) must be split by tp·pp: tp 8 × pp 6 (48 GPUs) would
    // be the smallest, but 48 does not divide 1024; tp 8 × pp 8 does (dp 16), so the advice keeps the same
    // GPUs rather than asking for 1024 replicas of 48: 2.8e12/64 ≈ 43.7 GB of states + 82.6 GB/8 of
    // activations (8 micro-batches in flight × 12 layers = 96 layers' worth, split by t with sp).
    in.zeroStage = 0;
    const QString sameGpus = QString::fromStdString(run(in).fitAdvice);
    QVERIFY2(sameGpus.contains("tp 8 × pp 8, sequence parallel with ≥ 8 micro-batches (64 GPUs per replica, "
                               "1024 in all)"),
             qPrintable(sameGpus));
    // A dense model too big for 8 GPUs: 1e12 × 16 B needs 200 × 80 GB under ZeRO-3.
    AccountingInput dense;
    dense.model.parameters = 1e12;
    dense.gpus = 8;
    dense.overheads = datasheetOverheads(); // 80e9 B each, as the lecture counts
    QCOMPARE(QString::fromStdString(run(dense).fitAdvice),
             QString("even batch 1 does not fit; it would with ZeRO-3 over 200 GPUs"));
    // A configuration that fits needs no advice.
    QVERIFY(run(preset("gpt2-small", 1)).fitAdvice.empty());
}

void TestParallelLayouts::dataParallelOnlyKeepsEarlierAnswers() {
    // The layout defaults reproduce data parallelism exactly: the same formulas as before layouts existed.
    AccountingInput in = preset("gpt2-small", 8);
    in.zeroStage = 1;
    const AccountingResult r = run(in);
    QCOMPARE(QString::fromStdString(r.memory.optimizerState.formula),
             QString("P × 8 B / GPUs = 1.24e8 × 8 / 8 = 1.24e8 B"));
    QCOMPARE(r.dataParallel.value, 8.0);
    QVERIFY(!r.memoryStage);
}

// Megatron-LM's uneven pipeline: the first and last stages hold the given layers, the others share the rest.
// Llama 3 405B, 126 layers on 16 stages as Meta trained it ("we reduce one Transformer layer each from the
// first and the last stages", The Llama 3 Herd of Models, section 3.3.2): 7, then 14 × 8, then 7.
void TestParallelLayouts::unevenStages_data() {
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("last");
    QTest::addColumn<double>("microbatches");
    QTest::addColumn<QString>("stage"); // the most loaded stage's GPU
    // 16 micro-batches: the first stage keeps min(16, 16) = 16 micro-batches of 7 layers (112 layer
    // activations), the second min(15, 16) = 15 of 8 (120): the second holds the most.
    QTest::newRow("Llama 3 405B: 7 + 14 × 8 + 7, 16 micro-batches") << 7.0 << 7.0 << 16.0 << "second";
    // 4 micro-batches: 4 × 7 = 28 on the first against 4 × 8 = 32 on the second.
    QTest::newRow("Llama 3 405B: 7 + 14 × 8 + 7, 4 micro-batches") << 7.0 << 7.0 << 4.0 << "second";
    // The first stage alone set: the other 15 stages share 126 − 6 = 120, 8 each; the first keeps 16 × 6
    // = 96 against the second's 15 × 8 = 120.
    QTest::newRow("first 6, the rest 8 each") << 6.0 << -1.0 << 16.0 << "second";
    // The last alone: 15 stages of (126 − 21)/15 = 7. The last's 21 layers hold three times a 7-layer
    // stage's model states (at dp 1 without ZeRO, 16 B a parameter: 1,105 GB against the first's 391 GB),
    // more than the first's 16 micro-batches in flight add over the last's one (575 GB against 112 GB).
    QTest::newRow("last 21, the rest 7 each") << -1.0 << 21.0 << 16.0 << "last";
}

void TestParallelLayouts::unevenStages() {
    QFETCH(double, first);
    QFETCH(double, last);
    QFETCH(double, microbatches);
    QFETCH(QString, stage);
    AccountingInput in = preset("llama3-405b", 16, 1, 16);
    in.parallel.microbatches = microbatches;
    if (first > 0)
        in.parallel.firstStageLayers = first;
    if (last > 0)
        in.parallel.lastStageLayers = last;
    const AccountingResult r = run(in);
    QCOMPARE(QString::fromStdString(std::string(pipelineStageName(r.memoryStage.value()))), stage);
    QCOMPARE(r.pipelineStages.size(), std::size_t(16));
    // Every layer is on one stage, and with tp 1 every parameter is on one GPU: the stages' parameters
    // are the model's.
    double layers = 0, parameters = 0, most = 0;
    for (const PipelineStageRow& row : r.pipelineStages) {
        layers += row.layers;
        parameters += row.parameters;
        most = std::max(most, row.totalBytes);
    }
    QCOMPARE(layers, 126.0);
    QCOMPARE(parameters, r.parameters.total);
    if (first > 0)
        QCOMPARE(r.pipelineStages.front().layers, first);
    if (last > 0)
        QCOMPARE(r.pipelineStages.back().layers, last);
    // The memory shown is the most loaded stage's, as the table computes it stage by stage.
    const double shown = r.memory.parameters.value + r.memory.gradients.value + r.memory.masterWeights.value +
                         r.memory.optimizerState.value + r.memory.activations.value + r.gathered.peakBytes();
    QCOMPARE(shown, most);
}

// Uneven stages given as the even split are the even split: every figure the same.
void TestParallelLayouts::unevenStagesAsEvenAreEven() {
    AccountingInput even = preset("llama3-8b", 32, 2, 4, true); // 32 layers, 8 a stage
    even.parallel.microbatches = 8;
    AccountingInput uneven = even;
    uneven.parallel.firstStageLayers = 8;
    uneven.parallel.lastStageLayers = 8;
    const AccountingResult a = run(even), b = run(uneven);
    QCOMPARE(b.peakMemory.value, a.peakMemory.value);
    QCOMPARE(b.memory.activations.value, a.memory.activations.value);
    QCOMPARE(b.parametersOnGpu.value, a.parametersOnGpu.value);
    QVERIFY(b.memoryStage == a.memoryStage);
    QCOMPARE(b.pipelineStages.size(), a.pipelineStages.size());
    for (std::size_t i = 0; i < a.pipelineStages.size(); ++i)
        QCOMPARE(b.pipelineStages[i].totalBytes, a.pipelineStages[i].totalBytes);
    QCOMPARE(b.communication.items.size(), a.communication.items.size());
}

void TestParallelLayouts::unevenStagesRefused_data() {
    QTest::addColumn<double>("pp");
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("last");
    QTest::addColumn<double>("virtualStages");
    QTest::addColumn<QString>("field");
    // 126 − 7 = 119 layers over 15 stages is not whole.
    QTest::newRow("rest not whole") << 16.0 << 7.0 << -1.0 << 1.0 << "first-stage-layers";
    QTest::newRow("one stage") << 1.0 << 7.0 << -1.0 << 1.0 << "first-stage-layers";
    QTest::newRow("interleaved") << 16.0 << 7.0 << 7.0 << 2.0 << "first-stage-layers";
    QTest::newRow("two stages must hold every layer") << 2.0 << 60.0 << 60.0 << 1.0 << "first-stage-layers";
    QTest::newRow("more than the model") << 4.0 << 100.0 << 30.0 << 1.0 << "first-stage-layers";
    QTest::newRow("last alone, rest not whole") << 16.0 << -1.0 << 10.0 << 1.0 << "last-stage-layers";
    // Without the knobs 16 stages cannot split 126 layers at all.
    QTest::newRow("pp 16 without them") << 16.0 << -1.0 << -1.0 << 1.0 << "pp";
}

void TestParallelLayouts::unevenStagesRefused() {
    QFETCH(double, pp);
    QFETCH(double, first);
    QFETCH(double, last);
    QFETCH(double, virtualStages);
    QFETCH(QString, field);
    AccountingInput in = preset("llama3-405b", 16 * pp, 1, pp);
    in.parallel.microbatches = 16;
    in.parallel.virtualStages = virtualStages;
    if (first > 0)
        in.parallel.firstStageLayers = first;
    if (last > 0)
        in.parallel.lastStageLayers = last;
    const InputError error = validate(in);
    QCOMPARE(QString::fromStdString(error.field), field);
    QVERIFY(!error.message.empty());
}

QTEST_APPLESS_MAIN(TestParallelLayouts)
#include "tst_parallel_layouts.moc"
