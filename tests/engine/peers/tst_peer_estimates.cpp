// SPDX-License-Identifier: GPL-3.0-or-later
// What the other calculators report: each peer's published example reproduced from its formula, and
// rows that name why Napkin's number differs. Sources: microsoft/DeepSpeed
// docs/code-docs/source/memory.rst (the estimators' printed tables) and deepspeed/runtime/zero/
// {stage_1_and_2,stage3}.py; NVIDIA/Megatron-LM megatron/training/theoretical_memory_usage.py and
// training.py (num_floating_point_operations).
#include "engine/peers/deepspeed_estimator.h"
#include "engine/peers/llm_analysis_estimator.h"
#include "engine/peers/megatron_estimator.h"
#include "engine/peers/peer_estimates.h"

#include "engine/models/model_presets.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

namespace {

// The estimators print bytes / 2**30 with two decimals ("{gpu_mem/2**30:6.2f}GB").
double printedGiB(double bytes) {
    return std::round(bytes / std::pow(2.0, 30) * 100) / 100;
}

AccountingResult run(const AccountingInput& in) {
    const InputError error = validate(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

AccountingInput preset(const char* id, double gpus, int zero) {
    AccountingInput in;
    in.model = findModelPreset(id)->model;
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpus = gpus;
    in.zeroStage = zero;
    return in;
}

const PeerTerm* term(const PeerQuantity& q, const std::string& name) {
    for (const PeerTerm& t : q.terms)
        if (t.name == name)
            return &t;
    return nullptr;
}

double termSum(const PeerQuantity& q) {
    double sum = 0;
    for (const PeerTerm& t : q.terms)
        sum += t.difference();
    return sum;
}

} // namespace

class TestPeerEstimates : public QObject {
    Q_OBJECT
private slots:
    void deepSpeedZero2Docs_data();
    void deepSpeedZero2Docs();
    void deepSpeedZero2CurrentFormula();
    void deepSpeedZero3Docs_data();
    void deepSpeedZero3Docs();
    void deepSpeedZero3DocsDiscussion_data();
    void deepSpeedZero3DocsDiscussion();
    void deepSpeedZero2NamesTheFp32GradientPartition();
    void deepSpeedZero3NamesTheGatheredLayer();
    void deepSpeedOnlyForZero2And3AndDataParallel();
    void megatronGpt3ParameterCount();
    void megatronGpt3WeightsAndOptimizer_data();
    void megatronGpt3WeightsAndOptimizer();
    void megatronGpt3ActivationsWithSequenceParallel();
    void megatronActivationsWithoutSpHardCodeA4hMlp();
    void megatronFlopsGpt3();
    void megatronNamesItsActivationErrors_data();
    void megatronNamesItsActivationErrors();
    void megatronTermsAddUpToTheDifference_data();
    void megatronTermsAddUpToTheDifference();
    void llmAnalysisPublishedExample();
    void llmAnalysisCurrentFormula();
    void llmAnalysisNamesNormsDividedByTp();
    void peersListedInOrder();
};

void TestPeerEstimates::deepSpeedZero2Docs_data() {
    QTest::addColumn<bool>("offload");
    QTest::addColumn<double>("cpuGiB");
    QTest::addColumn<double>("gpuGiB");
    // memory.rst, "estimate_zero2_model_states_mem_needs_all_cold(total_params=2851e6,
    // num_gpus_per_node=8, num_nodes=1)": "127.45GB | 5.31GB | cpu_offload=1" and
    // "127.45GB | 15.93GB | cpu_offload=0". The table predates DeepSpeed PR #5099 (4·N + 16·N/G).
    QTest::newRow("t5-3b, 8 GPUs, offload") << true << 127.45 << 5.31;
    QTest::newRow("t5-3b, 8 GPUs, no offload") << false << 127.45 << 15.93;
}

void TestPeerEstimates::deepSpeedZero2Docs() {
    QFETCH(bool, offload);
    QFETCH(double, cpuGiB);
    QFETCH(double, gpuGiB);
    const DeepSpeedMemory m = deepSpeedZero2(2851e6, 8, 1, offload, 1.5, DeepSpeedZero2Formula::beforePr5099);
    QCOMPARE(printedGiB(m.cpuBytes), cpuGiB);
    QCOMPARE(printedGiB(m.gpuBytes), gpuGiB);
}

void TestPeerEstimates::deepSpeedZero2CurrentFormula() {
    // stage_1_and_2.py (commit 022f223): gpu_mem = 2 * total_params + int(18 * total_params / total_gpus);
    // by hand for the docs' 2851e6 on 8 GPUs: 5,702e6 + 6,414,750,000 = 12,116,750,000 B (11.28 GiB).
    const DeepSpeedMemory m = deepSpeedZero2(2851e6, 8, 1, false);
    QCOMPARE(m.gpuBytes, 12116750000.0);
    QCOMPARE(printedGiB(m.gpuBytes), 11.28);
}

void TestPeerEstimates::deepSpeedZero3Docs_data() {
    QTest::addColumn<bool>("offload");
    QTest::addColumn<bool>("offloadParams");
    QTest::addColumn<bool>("zeroInit");
    QTest::addColumn<double>("cpuGiB");
    QTest::addColumn<double>("gpuGiB");
    // memory.rst, "estimate_zero3_model_states_mem_needs_all_cold(total_params=2851e6,
    // largest_layer_params=32e6, num_gpus_per_node=8, num_nodes=1)", its six printed rows.
    QTest::newRow("offload both, zero.Init") << true << true << true << 71.69 << 0.12;
    QTest::newRow("offload both") << true << true << false << 127.45 << 0.12;
    QTest::newRow("offload optimizer, zero.Init") << true << false << true << 63.72 << 0.78;
    QTest::newRow("offload optimizer") << true << false << false << 127.45 << 0.78;
    QTest::newRow("no offload, zero.Init") << false << false << true << 1.43 << 6.09;
    QTest::newRow("no offload") << false << false << false << 127.45 << 6.09;
}

void TestPeerEstimates::deepSpeedZero3Docs() {
    QFETCH(bool, offload);
    QFETCH(bool, offloadParams);
    QFETCH(bool, zeroInit);
    QFETCH(double, cpuGiB);
    QFETCH(double, gpuGiB);
    const DeepSpeedMemory m = deepSpeedZero3(2851e6, 32e6, 8, 1, offload, offloadParams, zeroInit);
    QCOMPARE(printedGiB(m.cpuBytes), cpuGiB);
    QCOMPARE(printedGiB(m.gpuBytes), gpuGiB);
}

void TestPeerEstimates::deepSpeedZero3DocsDiscussion_data() {
    QTest::addColumn<bool>("offload");
    QTest::addColumn<bool>("offloadParams");
    QTest::addColumn<double>("mebibytes");
    // memory.rst's Discussion, t5-large on 4 GPUs: "total params: 737.67M", "largest layer params:
    // 32.90M", "case1 gpu memory: 3291MB", "case2 gpu memory: 125MB", "case3 gpu memory: 477MB" (>> 20).
    QTest::newRow("case 1: no offload") << false << false << 3291.0;
    QTest::newRow("case 2: offload both") << true << true << 125.0;
    QTest::newRow("case 3: offload optimizer") << true << false << 477.0;
}

void TestPeerEstimates::deepSpeedZero3DocsDiscussion() {
    QFETCH(bool, offload);
    QFETCH(bool, offloadParams);
    QFETCH(double, mebibytes);
    const DeepSpeedMemory m = deepSpeedZero3(737.67e6, 32.90e6, 4, 1, offload, offloadParams, true);
    QCOMPARE(std::floor(m.gpuBytes / 1048576), mebibytes);
}

void TestPeerEstimates::deepSpeedZero2NamesTheFp32GradientPartition() {
    // GPT-2 small (124,439,808 parameters) on 8 GPUs, mixed bf16 AdamW, ZeRO-2. Napkin: 2·N + (2 + 4 +
    // 8)·N/8; DeepSpeed: 2·N + 18·N/8. The 4·N/8 between them is DeepSpeed's fp32 gradient partition beside
    // the 16-bit one (stage_1_and_2.py: "18 = 2_grads_16bit + 4_grads_32bit + ...").
    const AccountingInput in = preset("gpt2-small", 8, 2);
    const AccountingResult r = run(in);
    const PeerEstimate e = deepSpeedEstimate(in, r);
    QVERIFY(e.notApplicable.empty());
    QCOMPARE(e.quantities.size(), size_t(1));
    const PeerQuantity& q = e.quantities[0];
    const double N = 124439808;
    QCOMPARE(q.peer, 2 * N + std::trunc(18 * N / 8));
    QCOMPARE(*q.napkin, 2 * N + 14 * N / 8);
    const PeerTerm* gradients = term(q, "gradients");
    QVERIFY(gradients);
    QCOMPARE(gradients->difference(), 4 * N / 8);
    QVERIFY(!term(q, "other"));
    QVERIFY(std::abs(termSum(q) - q.difference()) < 1);
    // The docs' tables use the formula before PR #5099: 4·N + 16·N/8 = 746,638,848 B.
    QVERIFY(e.conventions.back().find("4·N + int(16·N/G) = 7.47e8 B") != std::string::npos);
}

void TestPeerEstimates::deepSpeedZero3NamesTheGatheredLayer() {
    // GPT-2 small, ZeRO-3 on 8 GPUs: DeepSpeed adds 4 B × the largest module, the 50257 × 768 token
    // embedding (38,597,376; model_to_params measures module by module), and counts fp32 gradients
    // (4·N/G) where Napkin's recipe keeps bf16 ones (2·N/G).
    const AccountingInput in = preset("gpt2-small", 8, 3);
    const AccountingResult r = run(in);
    QCOMPARE(*largestModuleParameters(in.model), 38597376.0);
    const PeerQuantity q = deepSpeedEstimate(in, r).quantities.at(0);
    const double N = 124439808;
    QCOMPARE(term(q, "gathered largest layer")->difference(), 4 * 38597376.0);
    QCOMPARE(term(q, "gradients")->difference(), 2 * N / 8);
    QVERIFY(!term(q, "other"));
    QVERIFY(std::abs(q.difference() - (4 * 38597376.0 + 2 * N / 8)) < 1);
}

void TestPeerEstimates::deepSpeedOnlyForZero2And3AndDataParallel() {
    AccountingInput in = preset("gpt2-small", 8, 1);
    QVERIFY(!deepSpeedEstimate(in, run(in)).notApplicable.empty());
    in = preset("llama3-8b", 8, 2);
    in.parallel.tp = 8;
    QVERIFY(!deepSpeedEstimate(in, run(in)).notApplicable.empty());
    in = preset("gpt2-small", 8, 3);
    in.model = ModelSpec{};
    in.model.parameters = 1e9;
    const PeerEstimate dense = deepSpeedEstimate(in, run(in));
    QVERIFY(dense.notApplicable.find("largest layer") != std::string::npos);
}

// GPT-3 175B in Megatron's arguments: h 12288, 96 layers, 96 heads, f = 4h, GELU, LayerNorm, tied, vocab
// 51200 (a multiple of 128·8 already), s 2048.
static MegatronArgs gpt3(double tp, double pp, double dp) {
    MegatronArgs a;
    a.hidden = 12288;
    a.ffnHidden = 4 * 12288;
    a.heads = a.queryGroups = 96;
    a.kvChannels = 128;
    a.layers = 96;
    a.paddedVocab = 51200;
    a.seq = 2048;
    a.tp = tp;
    a.pp = pp;
    a.dp = dp;
    return a;
}

void TestPeerEstimates::megatronGpt3ParameterCount() {
    // No published output of report_theoretical_memory was found; this is the file's formula by hand.
    // Per layer 2·h·(f + 2) + 2·h²·2 = 12·h² + 4·h = 1,811,988,480; × 96 = 173,950,894,080; + the final
    // LayerNorm 2·h: the block is 173,950,918,656; the tied embedding h·V = 629,145,600.
    const MegatronArgs a = gpt3(8, 8, 8);
    QCOMPARE(megatronTransformerBlockParameters(a), 173950918656.0);
    QCOMPARE(megatronParameters(a), 174580064256.0);
    QCOMPARE(megatronPaddedVocab(50257, 1),
             50304.0); // GPT-2's vocabulary, --make-vocab-size-divisible-by 128
    QCOMPARE(megatronPaddedVocab(50257, 8), 51200.0);
}

void TestPeerEstimates::megatronGpt3WeightsAndOptimizer_data() {
    QTest::addColumn<bool>("distributed");
    QTest::addColumn<double>("bytes");
    // Most loaded shard (tp 8, pp 8): (173,950,918,656/8 + 629,145,600)/8 = 2,796,626,304 parameters;
    // × 18 B (2 + 4 + 4 + 8: Megatron-LM issue #654, deepakn94's answer), or × (6 + 12/8) with the
    // distributed optimizer over dp = 8.
    QTest::newRow("18 B per parameter") << false << 2796626304.0 * 18;
    QTest::newRow("distributed optimizer, dp 8") << true << 2796626304.0 * 7.5;
}

void TestPeerEstimates::megatronGpt3WeightsAndOptimizer() {
    QFETCH(bool, distributed);
    QFETCH(double, bytes);
    MegatronArgs a = gpt3(8, 8, 8);
    a.distributedOptimizer = distributed;
    QCOMPARE(megatronMostLoadedShardParameters(a), 2796626304.0);
    QCOMPARE(megatronWeightAndOptimizerBytes(a), bytes);
}

void TestPeerEstimates::megatronGpt3ActivationsWithSequenceParallel() {
    // compute_activation_memory, tp 8, pp 8, 64 micro-batches of 1, SP + selective: 34·s·b·h per layer ×
    // 96 = 82,141,249,536; embedding 8·s·b·p + s·b·h·p = 201,457,664; min(1, 64/8) = 1; no output layer on
    // the first stage; all / 8: 10,267,656,192 + 25,182,208 = 10,292,838,400 B (Korthikanti et al. 2022,
    // Table 2's 34·s·b·h/t × L/p × p in flight).
    MegatronArgs a = gpt3(8, 8, 8);
    a.sequenceParallel = a.selectiveRecompute = true;
    const MegatronActivations m = megatronActivations(a, 64.0);
    QVERIFY(m.withSequenceParallel);
    QCOMPARE(m.layers, 10267656192.0);
    QCOMPARE(m.embedding, 25182208.0);
    QCOMPARE(m.output, 0.0);
    QCOMPARE(m.total, 10292838400.0);
}

void TestPeerEstimates::megatronActivationsWithoutSpHardCodeA4hMlp() {
    // compute_activation_memory_without_sp: s·b·h·(10 + 24/t) per layer whatever f is. A SwiGLU MLP of
    // f = 3.5·h (Llama 3 8B: 14336 / 4096) gets the same per-layer bytes as f = 4·h, while the
    // Korthikanti count it stands for is 10 + (8 + 4·F)/t.
    MegatronArgs a = gpt3(8, 1, 1);
    const double perLayer4h = megatronActivations(a, std::nullopt).layers;
    a.ffnHidden = 3.5 * a.hidden;
    QCOMPARE(megatronActivations(a, std::nullopt).layers, perLayer4h);
    QCOMPARE(perLayer4h, 2048.0 * 12288 * (10 + 24.0 / 8) * 96);
    // pp = 1 adds 16-bit logits and the final norm's output, (s·b·V/t + s·b·h) × 2, and 5 % on top.
    const MegatronActivations m = megatronActivations(gpt3(8, 1, 1), std::nullopt);
    QCOMPARE(m.output, (2048.0 * 51200 / 8 + 2048.0 * 12288) * 2);
    QCOMPARE(m.total, (m.layers + m.embedding + m.output) * 1.05);
}

void TestPeerEstimates::megatronFlopsGpt3() {
    // num_floating_point_operations for GPT-3 (MHA, GELU 4h): per sequence 72·s·L·h²·(1 + s/(12·h) +
    // V/(12·h·L)) — Narayanan et al. 2021's 72·B·s·L·h²·(1 + s/(6h) + V/(12hL)) with the attention
    // halved for the causal mask, as training.py's "causal mask (only half of the mask is non-zero)".
    const MegatronArgs a = gpt3(1, 1, 1);
    const double s = 2048, L = 96, h = 12288, V = 51200;
    const double expected = 72 * s * L * h * h * (1 + s / (12 * h) + V / (12 * h * L));
    QVERIFY(std::abs(megatronFlops(a, 1) / expected - 1) < 1e-12);
    QCOMPARE(megatronLogitFlops(a, 1), 6 * s * h * V);
}

void TestPeerEstimates::megatronNamesItsActivationErrors_data() {
    QTest::addColumn<QString>("presetId");
    QTest::addColumn<double>("tp");
    QTest::addColumn<bool>("sp");
    QTest::addColumn<int>("recompute");
    QTest::addColumn<QString>("named");
    // compute_activation_memory_without_sp's s·b·h·(10 + 24/t): 24/t is (8 + 4·F)/t at F = 4, whatever F is.
    QTest::newRow("Llama 3 8B (F = 3.5), tp 8") << "llama3-8b" << 8.0 << false << 1 << "hard-codes a 4·h MLP";
    // It is Korthikanti's selective form, so without recompute the a·s² scores are missing ...
    QTest::newRow("GPT-2 small, no recompute")
        << "gpt2-small" << 1.0 << false << 0 << "leaves out the 5·a·s/h attention scores";
    // ... with full recompute the layers' tensors are still counted ...
    QTest::newRow("GPT-2 small, full recompute")
        << "gpt2-small" << 1.0 << false << 2 << "ignores full recompute";
    // ... and sequence parallelism counts only with selective recompute (report_theoretical_memory).
    QTest::newRow("GPT-3, tp 8 + SP, no recompute")
        << "gpt3-175b" << 8.0 << true << 0 << "ignores sequence parallelism outside selective recompute";
}

void TestPeerEstimates::megatronNamesItsActivationErrors() {
    QFETCH(QString, presetId);
    QFETCH(double, tp);
    QFETCH(bool, sp);
    QFETCH(int, recompute);
    QFETCH(QString, named);
    AccountingInput in = preset(presetId.toStdString().c_str(), tp, 0);
    in.parallel.tp = tp;
    in.parallel.sp = sp;
    in.recompute = static_cast<Recompute>(recompute);
    const PeerEstimate e = megatronEstimate(in, run(in));
    const PeerQuantity& activations = e.quantities.at(1);
    QCOMPARE(QString::fromStdString(activations.name), QString("activations per GPU"));
    const std::string& why = term(activations, "transformer layers")->why;
    QVERIFY2(why.find(named.toStdString()) != std::string::npos, why.c_str());
}

void TestPeerEstimates::megatronTermsAddUpToTheDifference_data() {
    QTest::addColumn<QString>("presetId");
    QTest::addColumn<double>("gpus");
    QTest::addColumn<double>("tp");
    QTest::addColumn<double>("pp");
    QTest::addColumn<bool>("sp");
    QTest::addColumn<int>("recompute");
    QTest::newRow("GPT-2 small, 1 GPU") << "gpt2-small" << 1.0 << 1.0 << 1.0 << false << 0;
    QTest::newRow("Llama 3 8B, tp 8, SP, selective") << "llama3-8b" << 8.0 << 8.0 << 1.0 << true << 1;
    QTest::newRow("GPT-3 175B, tp 8 pp 8, full") << "gpt3-175b" << 512.0 << 8.0 << 8.0 << true << 2;
    QTest::newRow("Mixtral 8x7B, tp 8") << "mixtral-8x7b" << 8.0 << 8.0 << 1.0 << false << 0;
}

void TestPeerEstimates::megatronTermsAddUpToTheDifference() {
    QFETCH(QString, presetId);
    QFETCH(double, gpus);
    QFETCH(double, tp);
    QFETCH(double, pp);
    QFETCH(bool, sp);
    QFETCH(int, recompute);
    AccountingInput in = preset(presetId.toStdString().c_str(), gpus, 0);
    in.parallel.tp = tp;
    in.parallel.pp = pp;
    in.parallel.sp = sp;
    in.parallel.microbatches = pp * 2;
    in.recompute = static_cast<Recompute>(recompute);
    const PeerEstimate e = megatronEstimate(in, run(in));
    QVERIFY2(e.notApplicable.empty(), e.notApplicable.c_str());
    QCOMPARE(e.quantities.size(), size_t(3));
    for (const PeerQuantity& q : e.quantities) {
        QVERIFY(q.napkin);
        QVERIFY2(std::abs(termSum(q) - q.difference()) <= 1e-6 * std::max(1.0, std::abs(q.peer)),
                 q.name.c_str());
        for (const PeerTerm& t : q.terms)
            QVERIFY2(!t.why.empty(), t.name.c_str());
    }
    // Megatron's count has no biases: GPT-2's would make the parameters differ.
    if (presetId == "gpt2-small")
        QVERIFY(term(e.quantities[0], "parameters on the GPU")->why.find("no linear biases") !=
                std::string::npos);
}

// llm-analysis's Megatron-LM 175B config (llm_analysis/model_configs/megatron-lm-175b.json: 96 layers, 96
// heads, hidden 12288, vocab 50272, ffn 49152) on tp 8 × pp 12 × dp 8, no ZeRO, w16a16e16.
static LlmAnalysisArgs llmAnalysis175b() {
    LlmAnalysisArgs a;
    a.hidden = 12288;
    a.heads = a.kvHeads = 96;
    a.ffn = 49152;
    a.layers = 96;
    a.vocab = 50272;
    a.tp = 8;
    a.pp = 12;
    a.dp = 8;
    return a;
}

void TestPeerEstimates::llmAnalysisPublishedExample() {
    // examples/megatron-lm/outputs_train/megatron-lm-175b-a100-sxm-40gb-w16a16e16-tp8-pp12-dp8-sp1-...
    // -summary.json (commit b60b392): "num_params_total": 174563917824, "weight_memory_per_gpu":
    // 3778314240.0, "gradient_memory_per_gpu": 3623878656.0, "optimizer_state_memory_per_gpu": 28991029248.0.
    const LlmAnalysisModelStates s =
        llmAnalysisModelStates(llmAnalysis175b(), LlmAnalysisRelease::examplesB60b392);
    QCOMPARE(s.parameters, 174563917824.0);
    QCOMPARE(s.weights, 3778314240.0);
    QCOMPARE(s.gradients, 3623878656.0);
    QCOMPARE(s.optimizerState, 28991029248.0);
}

void TestPeerEstimates::llmAnalysisCurrentFormula() {
    // analysis.py at commit 08d7f8f, by hand: norms 2·h per layer and h final join the count
    // (174,563,917,824 + 96 × 24,576 + 12,288 = 174,566,289,408); weights (12·h² + 2·h) × 2 B / 8 × 8 layers
    // + the embedding 50272 × 12288 × 2 / 8 + the final norm 12288 × 2 / 8 = 3,778,366,464 B; gradients at
    // 4 B and optimizer state at 12 B of the same per-GPU parameters (1,889,183,232 of them).
    const LlmAnalysisModelStates s = llmAnalysisModelStates(llmAnalysis175b());
    QCOMPARE(s.parameters, 174566289408.0);
    QCOMPARE(s.weights, 3778366464.0);
    QCOMPARE(s.gradients, 3778366464.0 * 2);
    QCOMPARE(s.optimizerState, 3778366464.0 * 6);
}

void TestPeerEstimates::llmAnalysisNamesNormsDividedByTp() {
    // Llama 3 8B on tp 8: llm-analysis divides the RMSNorm weights by tp (they are replicated), counts two
    // MLP matrices of a SwiGLU's three and ties the untied head; the terms add up to the difference.
    AccountingInput in = preset("llama3-8b", 8, 1);
    in.parallel.tp = 8;
    const PeerEstimate e = llmAnalysisEstimate(in, run(in));
    QVERIFY2(e.notApplicable.empty(), e.notApplicable.c_str());
    const PeerQuantity& q = e.quantities.at(0);
    const std::string& why = term(q, "weights")->why;
    QVERIFY(why.find("divides the norms by tp") != std::string::npos);
    QVERIFY(why.find("a gated MLP's third is missing") != std::string::npos);
    QVERIFY(why.find("untied head") != std::string::npos);
    QVERIFY(!term(q, "other"));
    QVERIFY(std::abs(termSum(q) - q.difference()) < 1);
}

void TestPeerEstimates::peersListedInOrder() {
    const AccountingInput in = preset("gpt2-small", 8, 2);
    const std::vector<PeerEstimate> all = peerEstimates(in, run(in));
    QCOMPARE(all.size(), size_t(3));
    QCOMPARE(QString::fromStdString(all[0].peer), QString("DeepSpeed ZeRO-2 estimator"));
    QCOMPARE(QString::fromStdString(all[1].peer), QString("Megatron-LM"));
    QCOMPARE(QString::fromStdString(all[2].peer), QString("llm-analysis"));
}

QTEST_GUILESS_MAIN(TestPeerEstimates)
#include "tst_peer_estimates.moc"
