// SPDX-License-Identifier: GPL-3.0-or-later
// The step-time model: its op list does the accounting's FLOPs, its parts add up, and its predictions of
// published measured runs land where docs/benchmarks.md records (loose bounds: nothing here is fitted;
// the GEMM rates are mamf-finder's published measurements, the bandwidth the datasheet's).
#include "engine/steptime/inference_time.h"
#include "engine/steptime/published_profiles.h"
#include "engine/steptime/step_time.h"

#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/models/parameter_count.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

namespace {

AccountingResult run(const AccountingInput& in) {
    const InputError error = validate(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

HardwareProfile published(const std::string& gpu) {
    return publishedProfile(*GpuCatalog::builtIn().find(gpu)).profile.value_or(HardwareProfile{});
}

StepTime predict(const AccountingInput& in, const StepTimeOptions& options = {}) {
    return predictStepTime(in, run(in), published(in.gpu), options);
}

AccountingInput preset(const char* id) {
    AccountingInput in;
    if (const ModelPreset* preset = findModelPreset(id))
        in.model = preset->model;
    else // a shipped config.json (deepseek-v3, ...)
        in.model = zooModelConfig(*findZooModel(id)).config->model;
    in.precision = PrecisionRecipe::mixedBf16;
    return in;
}

// MosaicML's benchmark MPT models are GPT-2 blocks (biases, LayerNorm, GELU, learned positions, tied
// embeddings) at V = 50368 with flash attention and no dropout; NumParams in their table is
// 12·L·d² + 13·L·d + V·d + S·d + 2·d exactly.
AccountingInput mpt(double d, double heads, double layers, double seq, double micro, double accumulation,
                    const char* gpu, Recompute recompute) {
    AccountingInput in;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = d;
    in.model.heads = heads;
    in.model.layers = layers;
    in.model.vocab = 50368;
    in.model.seq = seq;
    in.model.dropout = false;
    in.model.attentionImpl = AttentionImpl::flash;
    in.batch = micro;
    in.parallel.microbatches = accumulation;
    in.gpus = 8;
    in.zeroStage = 3; // FSDP FULL_SHARD
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpu = gpu;
    in.recompute = recompute;
    return in;
}

// Llama 2 7B (Touvron et al. 2023; meta-llama/Llama-2-7b-hf config.json): d 4096, 32 layers, 32 heads
// (no grouped-query attention), FFN 11008, V 32000, untied head: 6,738,415,616 parameters.
ModelSpec llama2_7b() {
    ModelSpec m = findModelPreset("llama3-8b")->model;
    m.kvHeads = 32;
    m.ffnDim = 11008;
    m.vocab = 32000;
    m.seq = 4096;
    return m;
}

InferenceInput serving(const ModelSpec& model, double batch, double context, double prompt, const char* gpu) {
    InferenceInput in;
    in.model = model;
    in.batch = batch;
    in.context = context;
    in.prompt = prompt;
    in.gpu = gpu;
    const InputError error = validateInference(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return in;
}

double secondsOfKind(const InferenceTime& t, StepTimeKind kind) {
    double seconds = 0;
    for (const StepTimeRow& row : t.ledger)
        if (row.kind == kind)
            seconds += row.seconds;
    return seconds;
}

} // namespace

class TestStepTime : public QObject {
    Q_OBJECT
private slots:
    // The op list's forward FLOPs are the accounting's, whatever the layout splits.
    void opListDoesTheAccountingsFlops_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("tp");
        QTest::addColumn<double>("pp");
        QTest::addColumn<double>("micro");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<double>("ep");
        QTest::addColumn<double>("window"); // a sliding window on every other layer (0: none)
        QTest::newRow("gpt2-small") << "gpt2-small" << 1.0 << 1.0 << 1.0 << false << 1.0 << 0.0;
        QTest::newRow("gpt2-medium, tp 2, pp 2, 4 micro-batches")
            << "gpt2-medium" << 2.0 << 2.0 << 4.0 << false << 1.0 << 0.0;
        QTest::newRow("llama3-8b, flash, tp 4") << "llama3-8b" << 4.0 << 1.0 << 2.0 << true << 1.0 << 0.0;
        QTest::newRow("gpt3-175b, tp 8, pp 8") << "gpt3-175b" << 8.0 << 8.0 << 8.0 << true << 1.0 << 0.0;
        // Mixtral 8x7B: 8 experts, top-2, SwiGLU of 14336 (its model card's config.json).
        QTest::newRow("mixtral-8x7b, flash, tp 2, ep 4") << "mixtral-8x7b" << 2.0 << 1.0 << 1.0 << true << 4.0
                                                         << 0.0;
        QTest::newRow("mixtral-8x7b, eager, pp 2") << "mixtral-8x7b" << 1.0 << 2.0 << 2.0 << false << 1.0 << 0.0;
        // DeepSeek-V3 (its config.json): latent attention (q_lora_rank 1536, kv_lora_rank 512), 256 experts
        // top-8 of width 2048 with one shared, the first 3 layers dense.
        QTest::newRow("deepseek-v3, flash, ep 8") << "deepseek-v3" << 1.0 << 1.0 << 1.0 << true << 8.0 << 0.0;
        // Gemma-2's pattern: a 4096-token window on every other layer, here over 8192 tokens.
        QTest::newRow("llama3-8b, window 4096 every other layer, flash")
            << "llama3-8b" << 1.0 << 1.0 << 1.0 << true << 1.0 << 4096.0;
        QTest::newRow("llama3-8b, window 4096 every other layer, eager")
            << "llama3-8b" << 1.0 << 1.0 << 1.0 << false << 1.0 << 4096.0;
    }
    void opListDoesTheAccountingsFlops() {
        QFETCH(QString, preset);
        QFETCH(double, tp);
        QFETCH(double, pp);
        QFETCH(double, micro);
        QFETCH(bool, flash);
        QFETCH(double, ep);
        QFETCH(double, window);
        AccountingInput in = ::preset(preset.toStdString().c_str());
        in.parallel.tp = tp;
        in.parallel.pp = pp;
        in.parallel.ep = ep;
        in.parallel.microbatches = micro;
        in.gpus = tp * pp * ep;
        if (flash)
            in.model.attentionImpl = AttentionImpl::flash;
        if (window > 0) {
            in.model.seq = 2 * window;
            in.model.slidingWindow = window;
            in.model.globalEvery = 2;
        }
        const AccountingResult r = run(in);
        QCOMPARE(opListReplicaForwardFlops(in), r.flopsPerStep.forward * tp * pp);
        // Each GPU's GEMMs: forward 1×, backward 2× (the first layer of a transformer needs its input's
        // gradient too), so executed GEMM FLOPs are at least forward + backward of this GPU's share.
        const StepTime t = predict(in);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        double gemmFlops = 0;
        for (const StepTimeRow& row : t.ledger)
            gemmFlops += row.flops;
        QVERIFY(gemmFlops >= 0.99 * (r.flopsPerStep.forward + r.flopsPerStep.backward));
    }

    // The lecture's two models: their GEMMs are the FLOP count's, the first layer's backward without
    // its input's gradient.
    void lectureModels_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("gemmFlops");
        // Cruncher D 4, L 2, B 2: forward 144; backward 288 less the first layer's input gradient 2·2·16.
        QTest::newRow("cruncher") << int(ModelKind::cruncher) << 144.0 + 288.0 - 64.0;
        // linear2 B 16384, D 32768, K 8192: forward 4.398e13, backward twice less 2·B·D·D.
        QTest::newRow("linear2") << int(ModelKind::linear2)
                                 << 3 * 43980465111040.0 - 2 * 16384.0 * 32768 * 32768;
    }
    void lectureModels() {
        QFETCH(int, kind);
        QFETCH(double, gemmFlops);
        AccountingInput in;
        in.model.kind = static_cast<ModelKind>(kind);
        in.gpu = "H100-SXM";
        in.precision = PrecisionRecipe::mixedBf16;
        if (in.model.kind == ModelKind::cruncher) {
            in.model.dim = 4;
            in.model.layers = 2;
            in.batch = 2;
        } else {
            in.model.dim = 32768;
            in.model.out = 8192;
            in.batch = 16384;
        }
        const StepTime t = predict(in);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        double flops = 0;
        for (const StepTimeRow& row : t.ledger)
            flops += row.flops;
        QCOMPARE(flops, gemmFlops);
    }

    // A GEMM's backward is two GEMMs of other orientations, each costed at its own measured rate: linear2
    // (B 1024, D 512, K 256, fp32) with each layer's three GEMMs measured at exactly its shape. Layer 1's
    // input needs no gradient: its backward is gᵀ·x alone. Hand-computed: layer 1 2·1024·512·512 =
    // 536870912 FLOPs per GEMM, layer 2 2·1024·256·512 = 268435456.
    void backwardGemmsAtTheirOwnOrientation_data() {
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("phase");
        QTest::addColumn<double>("seconds");
        QTest::newRow("layer 1 forward, x·Wᵀ at 1e9") << "layer 1"
                                                      << "forward" << 536870912 / 1e9;
        QTest::newRow("layer 1 backward, gᵀ·x at 4e9 only") << "layer 1"
                                                            << "backward" << 536870912 / 4e9;
        QTest::newRow("layer 2 forward, x·Wᵀ at 2e9") << "layer 2"
                                                      << "forward" << 268435456 / 2e9;
        QTest::newRow("layer 2 backward, g·W at 3e9 + gᵀ·x at 5e9")
            << "layer 2"
            << "backward" << 268435456 / 3e9 + 268435456 / 5e9;
    }
    void backwardGemmsAtTheirOwnOrientation() {
        QFETCH(QString, row);
        QFETCH(QString, phase);
        QFETCH(double, seconds);
        AccountingInput in;
        in.model.kind = ModelKind::linear2;
        in.model.dim = 512;
        in.model.out = 256;
        in.batch = 1024;
        in.gpu = "H100-SXM";
        in.precision = PrecisionRecipe::fp32;
        HardwareProfile p;
        p.device = "H100-SXM";
        p.source = "test";
        p.memoryBandwidthBytesPerSecond = 1e15; // every GEMM compute-bound
        using O = GemmOrientation;
        p.gemms = {{ComputeType::fp32, 1024, 512, 512, 1e9, O::forward},
                   {ComputeType::fp32, 1024, 512, 512, 9e9, O::inputGradient}, // layer 1 never runs it
                   {ComputeType::fp32, 1024, 512, 512, 4e9, O::weightGradient},
                   {ComputeType::fp32, 1024, 256, 512, 2e9, O::forward},
                   {ComputeType::fp32, 1024, 256, 512, 3e9, O::inputGradient},
                   {ComputeType::fp32, 1024, 256, 512, 5e9, O::weightGradient}};
        const StepTime t = predictStepTime(in, run(in), p);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const StepTimeRow* found = nullptr;
        for (const StepTimeRow& r : t.ledger)
            if (QString::fromStdString(r.name).startsWith(row + " ") &&
                stepTimePhaseName(r.phase) == phase.toStdString())
                found = &r;
        QVERIFY(found);
        QVERIFY2(std::abs(found->seconds / seconds - 1) < 1e-12, found->formula.c_str());
        QCOMPARE(found->m * found->n * found->k > 0, true); // the shape a calibration reads
    }

    // The optimizer's update at the rate the profile measured for it, timed whole, when it has one: linear2
    // (D 512, K 256) has 512·512 + 512·256 = 393216 parameters; AdamW single-tensor moves 88 B of each
    // (22 fp32 accesses): 34603008 B, at 1e9 B/s 0.034603008 s; without one, at the bandwidth's 1e10.
    void updateAtItsMeasuredRate_data() {
        QTest::addColumn<bool>("measured");
        QTest::addColumn<double>("seconds");
        QTest::newRow("timed whole") << true << 34603008 / 1e9;
        QTest::newRow("not timed: the bandwidth") << false << 34603008 / 1e10;
    }
    void updateAtItsMeasuredRate() {
        QFETCH(bool, measured);
        QFETCH(double, seconds);
        AccountingInput in;
        in.model.kind = ModelKind::linear2;
        in.model.dim = 512;
        in.model.out = 256;
        in.batch = 1024;
        in.gpu = "H100-SXM";
        in.precision = PrecisionRecipe::fp32;
        in.optimizer = OptimizerKind::adamw;
        in.optimizerImplementation = OptimizerImplementation::singleTensor;
        HardwareProfile p;
        p.device = "H100-SXM";
        p.source = "test";
        p.memoryBandwidthBytesPerSecond = 1e10;
        p.gemms = {{ComputeType::fp32, 1024, 512, 512, 1e12}};
        if (measured)
            p.updates = {
                {OptimizerKind::adamw, OptimizerImplementation::singleTensor, StorageType::fp32, 4e5, 1e9}};
        const StepTime t = predictStepTime(in, run(in), p);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const StepTimeRow* update = nullptr;
        for (const StepTimeRow& r : t.ledger)
            if (r.phase == StepTimePhase::optimizer && r.kind == StepTimeKind::memory)
                update = &r;
        QVERIFY(update);
        QVERIFY2(std::abs(update->seconds / seconds - 1) < 1e-12, update->formula.c_str());
    }

    // The ledger's rows add up to the step, and MFU is model FLOPs over seconds × peak.
    void partsAddUp() {
        AccountingInput in = preset("gpt2-small");
        in.batch = 8;
        const AccountingResult r = run(in);
        const StepTime t = predictStepTime(in, r, published("H100-SXM"));
        QVERIFY2(t.predicted, t.whyNot.c_str());
        double sum = 0;
        for (const StepTimeRow& row : t.ledger) {
            sum += row.seconds;
            QVERIFY(row.seconds >= 0);
            QVERIFY(!row.formula.empty());
        }
        QCOMPARE(sum, t.seconds);
        const double mfu = (r.flopsPerStep.forward + r.flopsPerStep.backward) / (t.seconds * 989.4e12);
        QVERIFY(std::abs(t.mfu / mfu - 1) < 1e-12);
        QVERIFY(t.mfu > 0 && t.mfu < 792.1 / 989.4); // never above the GEMMs' achievable rate
        QCOMPARE(t.tokensPerSecond, 8 * 1024 / t.seconds);
    }

    // 1F1B's bubble is (p − 1)/v micro-batches of forward and backward; interleaving divides it by v.
    void pipelineBubble() {
        AccountingInput in = preset("gpt3-175b");
        in.parallel = {8, 8, 1, 1, true, 16, 1};
        in.gpus = 64;
        const StepTime plain = predict(in);
        in.parallel.virtualStages = 2;
        const StepTime interleaved = predict(in);
        auto bubble = [](const StepTime& t) {
            for (const StepTimeRow& row : t.ledger)
                if (row.kind == StepTimeKind::bubble)
                    return row.seconds;
            return -1.0;
        };
        QVERIFY(bubble(plain) > 0);
        QVERIFY(std::abs(bubble(interleaved) / bubble(plain) - 0.5) < 1e-9);
    }

    // DDP's all-reduce hides behind the backward; without overlap it adds its whole time.
    void dataParallelOverlap() {
        AccountingInput in = preset("llama3-8b");
        in.gpus = 16;
        in.zeroStage = 3;
        in.model.attentionImpl = AttentionImpl::flash;
        const StepTime overlapped = predict(in);
        const StepTime exposed = predict(in, {false});
        QVERIFY(overlapped.predicted && exposed.predicted);
        QVERIFY(exposed.seconds > overlapped.seconds);
    }

    // A mixture of experts' GEMMs: the experts' rows do the accounting's 2·T·L_moe·K·P_expert forward
    // (each GPU's E/ep experts over the T·K·ep/E tokens routed to each), the router its 2·T·L_moe·d·E;
    // a sliding window shortens flash attention and leaves eager attention's s×s (PyTorch masks it).
    void expertsAndWindows() {
        AccountingInput in = ::preset("mixtral-8x7b");
        in.model.attentionImpl = AttentionImpl::flash;
        in.parallel.ep = 8;
        in.gpus = 8;
        const AccountingResult r = run(in);
        const StepTime t = predictStepTime(in, r, published(in.gpu));
        QVERIFY2(t.predicted, t.whyNot.c_str());
        auto forwardFlops = [&](const std::string& prefix) {
            double flops = 0;
            for (const StepTimeRow& row : t.ledger)
                if (row.phase == StepTimePhase::forward && row.name.rfind(prefix, 0) == 0)
                    flops += row.flops;
            return flops;
        };
        auto component = [&](const std::string& name) {
            for (const ComponentFlops& c : r.flopsPerStep.components)
                if (c.name == name)
                    return c.forward;
            return -1.0;
        };
        QCOMPARE(forwardFlops("expert "), component("experts"));
        QCOMPARE(forwardFlops("router"), component("router"));
        bool alltoall = false;
        for (const StepTimeRow& row : t.ledger)
            alltoall = alltoall || row.name.find("all-to-all") != std::string::npos;
        QVERIFY2(alltoall, "expert parallelism's all-to-alls are on the critical path");

        for (const bool flash : {true, false}) {
            AccountingInput dense = ::preset("llama3-8b");
            dense.model.attentionImpl = flash ? AttentionImpl::flash : AttentionImpl::eager;
            dense.model.seq = 8192;
            AccountingInput windowed = dense;
            windowed.model.slidingWindow = 1024;
            const StepTime full = predict(dense), shorter = predict(windowed);
            QVERIFY(full.predicted && shorter.predicted);
            if (!flash) {
                QCOMPARE(shorter.seconds, full.seconds);
                continue;
            }
            QVERIFY(shorter.seconds < full.seconds);
            auto attention = [](const StepTime& t) {
                double flops = 0;
                for (const StepTimeRow& row : t.ledger)
                    if (row.phase == StepTimePhase::forward && row.name.rfind("flash attention", 0) == 0)
                        flops += row.flops;
                return flops;
            };
            // Causal pairs within a 1024-token window of 8192: 2·(s·W − W²/2)·½ against s²/2 (flop_count.h).
            QCOMPARE(attention(shorter) / attention(full), (8192.0 * 1024 - 1024.0 * 1024 / 2) / (8192.0 * 8192 / 2));
        }
    }

    // Uneven pipeline stages (Llama 3 405B's 7 + 14 × 8 + 7 on 16 stages): the slowest stage, a middle one
    // of 8 layers, sets the pace; its ops are those of an even 8-layer stage's GEMMs, without the head.
    void unevenStagesTimeTheSlowest() {
        AccountingInput uneven = ::preset("llama3-405b");
        uneven.model.attentionImpl = AttentionImpl::flash;
        uneven.gpus = 16;
        uneven.parallel.pp = 16;
        uneven.parallel.microbatches = 16;
        uneven.parallel.firstStageLayers = 7;
        uneven.parallel.lastStageLayers = 7;
        AccountingInput even = uneven; // 128 layers: 8 on every stage
        even.model.layers = 128;
        even.parallel.firstStageLayers.reset();
        even.parallel.lastStageLayers.reset();
        const StepTime a = predict(uneven), b = predict(even);
        QVERIFY2(a.predicted, a.whyNot.c_str());
        QVERIFY2(b.predicted, b.whyNot.c_str());
        auto flopsOf = [](const StepTime& t, const std::string& name) {
            double flops = 0;
            for (const StepTimeRow& row : t.ledger)
                if (row.phase == StepTimePhase::forward && row.name.rfind(name, 0) == 0) // name, then shape
                    flops += row.flops;
            return flops;
        };
        QVERIFY(flopsOf(a, "mlp down projection") > 0);
        QCOMPARE(flopsOf(a, "mlp down projection"), flopsOf(b, "mlp down projection"));
        QCOMPARE(flopsOf(a, "output head"), 0.0);
        QVERIFY(flopsOf(b, "output head") > 0);
        bool named = false;
        for (const std::string& line : a.notModelled)
            named = named || line.find("the second stage's ops are timed") != std::string::npos;
        QVERIFY(named);
    }

    void notPredicted_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("precision");
        QTest::addColumn<QString>("why");
        QTest::newRow("QK-norm") << "qwen3-8b"
                                 << "H100-SXM" << int(PrecisionRecipe::mixedBf16) << "QK-norm";
        QTest::newRow("fp32 on a bf16-only profile")
            << "gpt2-small"
            << "H100-SXM" << int(PrecisionRecipe::fp32) << "has no fp32 GEMM rate";
    }
    void notPredicted() {
        QFETCH(QString, preset);
        QFETCH(QString, gpu);
        QFETCH(int, precision);
        QFETCH(QString, why);
        AccountingInput in = ::preset(preset.toStdString().c_str());
        in.gpu = gpu.toStdString();
        in.precision = static_cast<PrecisionRecipe>(precision);
        const StepTime t = predict(in);
        QVERIFY(!t.predicted);
        QVERIFY2(t.whyNot.find(why.toStdString()) != std::string::npos, t.whyNot.c_str());
        QCOMPARE(t.seconds, 0.0);
    }

    // Published measured runs, predicted from mamf-finder's published GEMM rate and the datasheet's
    // bandwidth. Source: mosaicml/llm-foundry scripts/train/benchmarking/README.md (commit 061f2c7),
    // "H100 80GB BF16" and "A100 80GB with 1600 Gbps node-node interconnect" tables: 8 GPUs, FSDP
    // FULL_SHARD, amp_bf16; the measured step = GlobalBatchSize (T) / Throughput (T/s). NumParams is
    // checked exactly before any time is compared. The bounds are loose on purpose: docs/benchmarks.md
    // records where each row lands (the single best-shape GEMM rate makes the prediction fast).
    void publishedRuns_data() {
        QTest::addColumn<double>("d");
        QTest::addColumn<double>("heads");
        QTest::addColumn<double>("layers");
        QTest::addColumn<double>("seq");
        QTest::addColumn<double>("micro");
        QTest::addColumn<double>("accumulation");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("checkpointing");
        QTest::addColumn<double>("numParams");
        QTest::addColumn<double>("measuredSeconds");
        // |  7b | 2048 | 8 | h100_80gb | 46.44 | ... | 6 | 1 | 48 | 41 | 85144 | ... | 98304 | ... False
        QTest::newRow("MPT-7B s2048 H100") << 4096.0 << 32.0 << 32.0 << 2048.0 << 6.0 << 1.0 << "H100-SXM"
                                           << false << 6658859008.0 << 98304.0 / 85144;
        // |  13b | 2048 | 8 | h100_80gb | 39.79 | ... | 2 | 1 | 16 | 18 | 38336 | ... | 32768 | ... False
        QTest::newRow("MPT-13B s2048 H100") << 5120.0 << 40.0 << 40.0 << 2048.0 << 2.0 << 1.0 << "H100-SXM"
                                            << false << 12853954560.0 << 32768.0 / 38336;
        // |  3b | 4096 | 8 | h100_80gb | 42.31 | ... | 5 | 6 | 240 | 40 | 167712 | ... | 983040 | ... False
        QTest::newRow("MPT-3B s4096 H100") << 2560.0 << 20.0 << 32.0 << 4096.0 << 5.0 << 6.0 << "H100-SXM"
                                           << false << 2657080320.0 << 983040.0 / 167712;
        // |  1b | 2048 | 8 | h100_80gb | 41.82 | ... | 14 | 1 | 112 | 177 | 363645 | ... | 229376 | ... False
        QTest::newRow("MPT-1B s2048 H100") << 2048.0 << 16.0 << 24.0 << 2048.0 << 14.0 << 1.0 << "H100-SXM"
                                           << false << 1315950592.0 << 229376.0 / 363645;
        // |  30b | 2048 | 8 | a100_80gb | 55.3 | ... | 3 | 21 | 504 | 3 | 7330 | ... | 1032192 | ... True
        QTest::newRow("MPT-30B s2048 A100, checkpointing")
            << 7168.0 << 64.0 << 48.0 << 2048.0 << 3.0 << 21.0 << "A100-SXM" << true << 29975214080.0
            << 1032192.0 / 7330;
    }
    void publishedRuns() {
        QFETCH(double, d);
        QFETCH(double, heads);
        QFETCH(double, layers);
        QFETCH(double, seq);
        QFETCH(double, micro);
        QFETCH(double, accumulation);
        QFETCH(QString, gpu);
        QFETCH(bool, checkpointing);
        QFETCH(double, numParams);
        QFETCH(double, measuredSeconds);
        const AccountingInput in = mpt(d, heads, layers, seq, micro, accumulation, gpu.toStdString().c_str(),
                                       checkpointing ? Recompute::full : Recompute::none);
        const AccountingResult r = run(in);
        QCOMPARE(r.parameters.total, numParams);
        const StepTime t = predictStepTime(in, r, published(in.gpu));
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const double ratio = t.seconds / measuredSeconds;
        qInfo("%s: predicted %.4g s, measured %.4g s, ratio %.3f, predicted MFU %.3f",
              QTest::currentDataTag(), t.seconds, measuredSeconds, ratio, t.mfu);
        QVERIFY2(ratio > 0.4 && ratio < 1.5, std::to_string(ratio).c_str());
    }

    // Serving: the prefill and one decode step predicted over their ops from the published profile (MAMF
    // ≤ the dense peak, the datasheet's bandwidth) can never beat the roofline's lower bound, which runs the
    // whole pass as one op at the datasheet's peak and bandwidth.
    void servingNotBelowRoofline_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("weights");
        QTest::addColumn<double>("batch");
        QTest::addColumn<double>("context");
        QTest::addColumn<double>("prompt");
        QTest::addColumn<double>("gpus");
        QTest::addColumn<bool>("flash");
        QTest::newRow("llama3-8b B 1 S 8192") << "llama3-8b"
                                              << "H100-SXM"
                                              << "bf16" << 1.0 << 8192.0 << 8192.0 << 1.0 << true;
        QTest::newRow("llama3-8b B 64 S 2048 P 512 eager")
            << "llama3-8b"
            << "H100-SXM"
            << "bf16" << 64.0 << 2048.0 << 512.0 << 1.0 << false;
        QTest::newRow("llama3-8b B 256 S 128, A100") << "llama3-8b"
                                                     << "A100-SXM"
                                                     << "bf16" << 256.0 << 128.0 << 128.0 << 1.0 << true;
        QTest::newRow("gpt2-small B 8 S 1024 eager") << "gpt2-small"
                                                     << "H100-SXM"
                                                     << "bf16" << 8.0 << 1024.0 << 1024.0 << 1.0 << false;
        QTest::newRow("llama3-70b int4 over 2 GPUs") << "llama3-70b"
                                                     << "H100-SXM"
                                                     << "int4" << 4.0 << 4096.0 << 1024.0 << 2.0 << true;
        QTest::newRow("llama3-70b bf16 over 8 GPUs, B 32")
            << "llama3-70b"
            << "H100-SXM"
            << "bf16" << 32.0 << 8192.0 << 2048.0 << 8.0 << true;
    }
    void servingNotBelowRoofline() {
        QFETCH(QString, preset);
        QFETCH(QString, gpu);
        QFETCH(QString, weights);
        QFETCH(double, batch);
        QFETCH(double, context);
        QFETCH(double, prompt);
        QFETCH(double, gpus);
        QFETCH(bool, flash);
        ModelSpec model = findModelPreset(preset.toStdString())->model;
        model.attentionImpl = flash ? AttentionImpl::flash : AttentionImpl::eager;
        InferenceInput in;
        in.model = model;
        in.batch = batch;
        in.context = context;
        in.prompt = prompt;
        in.gpu = gpu.toStdString();
        in.gpus = gpus;
        in.weights = *weightFormatFromName(weights.toStdString());
        QVERIFY(validateInference(in).ok());
        const GpuSpec& part = *GpuCatalog::builtIn().find(in.gpu);
        const InferenceResult r = accountInference(in, part);
        const InferenceTimes t = predictInferenceTime(in, part, published(in.gpu));
        QVERIFY2(t.prefill.predicted, t.prefill.whyNot.c_str());
        QVERIFY2(t.decode.predicted, t.decode.whyNot.c_str());
        qInfo("%s: prefill %.4g s (roofline %.4g), decode %.4g s (roofline %.4g)", QTest::currentDataTag(),
              t.prefill.seconds, r.prefillSeconds.value, t.decode.seconds, r.decodeSecondsPerToken.value);
        QVERIFY(t.prefill.seconds >= r.prefillSeconds.value);
        QVERIFY(t.decode.seconds >= r.decodeSecondsPerToken.value);
        QCOMPARE(t.decode.tokensPerSecond, batch / t.decode.seconds);
        QCOMPARE(t.prefill.tokensPerSecond, batch * prompt / t.prefill.seconds);
        // Every row of the ledger is one of the sum's terms.
        double sum = 0;
        for (const StepTimeRow& row : t.decode.ledger)
            sum += row.seconds;
        QCOMPARE(sum, t.decode.seconds);
        QCOMPARE(gpus > 1, secondsOfKind(t.decode, StepTimeKind::communication) > 0);
    }

    // Decode at B = 1 reads every weight once: Llama 2 7B's GEMM weights are 32 × (4·4096² + 3·4096·11008)
    // + 32000·4096 (the head) = 6,607,077,376, at 2 B = 13,214,154,752 B, over the H100 SXM's datasheet
    // 3.35e12 B/s (the published profile's bandwidth) = 3.9445 ms. The activations, norms and a one-token
    // cache add well under 1 %.
    void decodeAtBatchOneReadsTheWeights() {
        const InferenceInput in = serving(llama2_7b(), 1, 1, 1, "H100-SXM");
        QCOMPARE(countParameters(in.model).total, 6738415616.0);
        const InferenceTime t =
            predictInferenceTime(in, *GpuCatalog::builtIn().find("H100-SXM"), published("H100-SXM")).decode;
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const double byHand = 13214154752.0 / 3.35e12;
        QVERIFY2(t.seconds >= byHand && t.seconds < 1.01 * byHand, std::to_string(t.seconds).c_str());
        QVERIFY(secondsOfKind(t, StepTimeKind::memory) > 0.99 * t.seconds);
        QVERIFY(t.basis.find("mamf-finder") != std::string::npos);
    }

    // A long prompt is compute bound: every projection GEMM of Llama 2 7B's 4096-token prefill runs at the
    // MAMF rate (4096 rows), the GEMMs' FLOPs at 792.1e12 FLOP/s setting most of the time.
    void prefillAtALongPromptIsComputeBound() {
        ModelSpec model = llama2_7b();
        model.attentionImpl = AttentionImpl::flash;
        const InferenceInput in = serving(model, 1, 4096, 4096, "H100-SXM");
        const InferenceTime t =
            predictInferenceTime(in, *GpuCatalog::builtIn().find("H100-SXM"), published("H100-SXM")).prefill;
        QVERIFY2(t.predicted, t.whyNot.c_str());
        for (const StepTimeRow& row : t.ledger)
            if (row.m > 0)
                QVERIFY2(row.kind == StepTimeKind::compute, row.name.c_str());
        // 2 × 6,607,077,376 × 4096 GEMM FLOPs / 792.1e12 FLOP/s = 68.33 ms at least.
        QVERIFY(secondsOfKind(t, StepTimeKind::compute) >= 2 * 6607077376.0 * 4096 / 792.1e12);
        QVERIFY(secondsOfKind(t, StepTimeKind::compute) > 0.5 * t.seconds);
    }

    void servingNotPredicted_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("window"); // a sliding window on every layer; 0: none
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("weights");
        QTest::addColumn<QString>("why");
        QTest::newRow("QK-norm") << "qwen3-8b" << 0.0 << "H100-SXM"
                                 << "bf16"
                                 << "QK-norm";
        QTest::newRow("fp8 on the bf16 MAMF table") << "llama3-8b" << 0.0 << "H100-SXM"
                                                    << "fp8"
                                                    << "has no fp8 GEMM";
        QTest::newRow("a part with nothing published") << "llama3-8b" << 0.0 << "L4"
                                                       << "bf16"
                                                       << "no published";
    }
    void servingNotPredicted() {
        QFETCH(QString, preset);
        QFETCH(double, window);
        QFETCH(QString, gpu);
        QFETCH(QString, weights);
        QFETCH(QString, why);
        InferenceInput in;
        in.model = ::preset(preset.toStdString().c_str()).model;
        in.model.slidingWindow = window;
        in.context = 1024;
        in.gpu = gpu.toStdString();
        in.weights = *weightFormatFromName(weights.toStdString());
        const GpuSpec& part = *GpuCatalog::builtIn().find(in.gpu);
        const InferenceTimes t = inferenceTimeFromProfile(in, part, nullptr);
        for (const InferenceTime* pass : {&t.prefill, &t.decode}) {
            QVERIFY(!pass->predicted);
            QVERIFY2(pass->whyNot.find(why.toStdString()) != std::string::npos, pass->whyNot.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestStepTime)
#include "tst_step_time.moc"
