// SPDX-License-Identifier: GPL-3.0-or-later
// ZeRO and FSDP as the frameworks run them: DeepSpeed's two gradient copies under ZeRO-1/2, ZeRO-3/FSDP's
// gathered layers and reduce buffers, HSDP's shard groups, the interleaved 1F1B schedule and the memory of
// every pipeline stage. Each row names the source of its expected value.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/models/model_presets.h"
#include "engine/accounting/parallel_layout.h"

#include <QtTest>

using namespace napkin;

namespace {

const GpuSpec& h100() {
    return *GpuCatalog::builtIn().find("H100-SXM");
}

AccountingResult run(const AccountingInput& in) {
    const InputError error = validate(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return account(in, h100());
}

AccountingInput denseModel(double parameters, double gpus, int zero) {
    AccountingInput in;
    in.model.kind = ModelKind::dense;
    in.model.parameters = parameters;
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpus = gpus;
    in.zeroStage = zero;
    return in;
}

AccountingInput preset(const char* id, double gpus, int zero) {
    AccountingInput in;
    in.model = findModelPreset(id)->model;
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpus = gpus;
    in.zeroStage = zero;
    return in;
}

double states(const AccountingResult& r) {
    return r.memory.parameters.value + r.memory.gradients.value + r.memory.masterWeights.value +
           r.memory.optimizerState.value;
}

} // namespace

class TestShardedLayouts : public QObject {
    Q_OBJECT
private slots:
    void twoGradientCopies_data();
    void twoGradientCopies();
    void twoGradientCopiesInTheTimeline();
    void gatheredLayers_data();
    void gatheredLayers();
    void gatheredLayersAreEventsWithALifetime();
    void fp32ReduceSendsFp32Gradients();
    void refusals_data();
    void refusals();
    void phaseOnlyPeakCountsTheWorkingSet();
    void interleavedBubble_data();
    void interleavedBubble();
    void interleavedInFlight_data();
    void interleavedInFlight();
    void interleavedRefusals();
    void perStageTable();
    void hybridSharding();
};

void TestShardedLayouts::twoGradientCopies_data() {
    QTest::addColumn<double>("parameters");
    QTest::addColumn<double>("gpus");
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("expected");
    // DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py, estimate_zero2_model_states_mem_needs with
    // cpu_offload=False: gpu_mem = 4·Ψ + 16·Ψ/N (16-bit weights and gradients whole; fp32 master weights,
    // Adam's two moments and the fp32 gradient partition over N).
    QTest::newRow("ZeRO-2, 1e9 params on 8 GPUs: 4e9 + 2e9") << 1e9 << 8.0 << 2 << 4e9 + 16e9 / 8;
    QTest::newRow("ZeRO-2, 7e9 params on 64 GPUs") << 7e9 << 64.0 << 2 << 4 * 7e9 + 16 * 7e9 / 64;
    // ZeRO-1 runs the same code (stage_1_and_2.py): the same two copies.
    QTest::newRow("ZeRO-1, 1e9 params on 8 GPUs") << 1e9 << 8.0 << 1 << 4e9 + 16e9 / 8;
}

void TestShardedLayouts::twoGradientCopies() {
    QFETCH(double, parameters);
    QFETCH(double, gpus);
    QFETCH(int, zero);
    QFETCH(double, expected);
    AccountingInput in = denseModel(parameters, gpus, zero);
    in.sharding.twoGradientCopies = true;
    const AccountingResult r = run(in);
    QCOMPARE(states(r), expected);
    // The ZeRO paper's 2Ψ + 2Ψ/N + 12Ψ/N (Rajbhandari et al. 2020, Figure 1) without the switch.
    in.sharding.twoGradientCopies = false;
    const double paper = 2 * parameters + (zero >= 2 ? 2 * parameters / gpus : 2 * parameters) +
                         12 * parameters / gpus;
    QCOMPARE(states(run(in)), paper);
}

void TestShardedLayouts::twoGradientCopiesInTheTimeline() {
    // GPT-2 small on 8 GPUs, ZeRO-2: the timeline's gradients reach memory_bytes.gradients at the optimizer
    // step, now 2 B whole + 4 B / 8 per parameter.
    AccountingInput in = preset("gpt2-small", 8, 2);
    in.sharding.twoGradientCopies = true;
    const AccountingResult r = run(in);
    const double p = r.parameters.total;
    QCOMPARE(r.memory.gradients.value, p * 2 + p * 4 / 8);
    const MemoryTimeline t = memoryTimeline(in, r);
    bool sawOptimizer = false;
    for (const TimelineEvent& e : t.events)
        if (e.event.phase == StepPhase::optimizer) {
            QCOMPARE(e.bytes.gradients, r.memory.gradients.value);
            sawOptimizer = true;
        }
    QVERIFY(sawOptimizer);
}

void TestShardedLayouts::gatheredLayers_data() {
    QTest::addColumn<QString>("convention");
    QTest::addColumn<double>("prefetch");
    QTest::addColumn<bool>("fp32Reduce");
    QTest::addColumn<double>("forward");
    QTest::addColumn<double>("backward");
    // GPT-2 small (model_presets.cpp): d 768, V 50257, S 1024, L 12; one layer's parameters
    // 12·d² + 13·d = 7,087,872; the root (token and position embeddings, final norm; the head is tied)
    // V·d + S·d + 2·d = 38,597,376 + 786,432 + 1,536 = 39,385,344. bf16 weights and gradients (2 B).
    const double layer = 7087872, root = 39385344;
    // FSDP2 (torch/distributed/_composable/fsdp): the root stays gathered (_fsdp_state.py), the layer and
    // one prefetched; backward adds the layer's bf16 gradients and the reduce-scatter input
    // (_fsdp_collectives.py foreach_reduce) in the reduce dtype.
    QTest::newRow("fsdp, prefetch 1, bf16 reduce") << "fsdp" << 1.0 << false << (root + 2 * layer) * 2
                                                   << (root + 2 * layer) * 2 + layer * (2 + 2);
    QTest::newRow("fsdp, prefetch 1, fp32 reduce") << "fsdp" << 1.0 << true << (root + 2 * layer) * 2
                                                   << (root + 2 * layer) * 2 + layer * (2 + 4);
    QTest::newRow("fsdp, no prefetch") << "fsdp" << 0.0 << false << (root + layer) * 2
                                       << (root + layer) * 2 + layer * 4;
    // DeepSpeed stage3.py estimate_zero3_model_states_mem_needs: largest_layer_memory = 4 × the largest
    // module's parameters, GPT-2's token embedding V·d = 38,597,376 (> d·4d = 2,359,296).
    QTest::newRow("deepspeed: 4 B × V·d") << "deepspeed" << 1.0 << false << 4 * 38597376.0 << 4 * 38597376.0;
}

void TestShardedLayouts::gatheredLayers() {
    QFETCH(QString, convention);
    QFETCH(double, prefetch);
    QFETCH(bool, fp32Reduce);
    QFETCH(double, forward);
    QFETCH(double, backward);
    AccountingInput in = preset("gpt2-small", 8, 3);
    in.sharding.gathered = *gatheredLayersFromName(convention.toStdString());
    in.sharding.prefetchLayers = prefetch;
    in.sharding.fp32Reduce = fp32Reduce;
    const AccountingResult r = run(in);
    QCOMPARE(r.gathered.forwardBytes, forward);
    QCOMPARE(r.gathered.backwardBytes, backward);
    // The sum counts the larger of the two above the shards.
    in.sharding = {};
    const AccountingResult shards = run(in);
    QCOMPARE(r.memory.total.value, shards.memory.total.value + std::max(forward, backward));
}

void TestShardedLayouts::gatheredLayersAreEventsWithALifetime() {
    // The gathered weights appear with forward and go after backward: none at start or at the optimizer
    // step, the root and two layers at each forward layer, and the reduce buffers at each backward layer.
    AccountingInput in = preset("gpt2-small", 8, 3);
    in.sharding.gathered = GatheredLayers::fsdp;
    const AccountingResult r = run(in);
    const MemoryTimeline t = memoryTimeline(in, r);
    const double shards = r.memory.parameters.value;
    for (const TimelineEvent& e : t.events) {
        const bool computing = e.event.phase == StepPhase::forward || e.event.phase == StepPhase::backward ||
                               e.event.phase == StepPhase::recompute;
        QCOMPARE(e.bytes.parameters, computing ? shards + r.gathered.parameterBytes : shards);
    }
    AccountingInput plain = in;
    plain.sharding = {};
    const MemoryTimeline before = memoryTimeline(plain, run(plain));
    QCOMPARE(before.events.size(), t.events.size());
    // At each backward layer the unsharded gradients and the reduce-scatter input are temporaries.
    for (std::size_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].event.phase == StepPhase::backward && t.events[i].event.part == StepPart::layer)
            QCOMPARE(t.events[i].bytes.temporary - before.events[i].bytes.temporary,
                     r.gathered.backwardBytes - r.gathered.parameterBytes);
    QVERIFY(r.peakMemory.value > run(plain).peakMemory.value);
}

void TestShardedLayouts::fp32ReduceSendsFp32Gradients() {
    // FSDP2 with reduce_dtype=torch.float32 reduce-scatters 4 B per gradient (_fsdp_collectives.py), the
    // ring's (n − 1)/n of them: 7/8 × P × 4 on 8 GPUs, against 7/8 × P × 2 in bf16.
    AccountingInput in = preset("gpt2-small", 8, 3);
    in.sharding.gathered = GatheredLayers::fsdp;
    const auto reduceScatter = [](const AccountingResult& r) {
        for (const CommunicationItem& i : r.communication.items)
            if (i.name == "gradient reduce-scatter")
                return i.bytes;
        return 0.0;
    };
    const AccountingResult bf16 = run(in);
    in.sharding.fp32Reduce = true;
    const AccountingResult fp32 = run(in);
    QCOMPARE(reduceScatter(bf16), 7.0 / 8 * bf16.parameters.total * 2);
    QCOMPARE(reduceScatter(fp32), 7.0 / 8 * fp32.parameters.total * 4);
}

void TestShardedLayouts::refusals_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<bool>("twoCopies");
    QTest::addColumn<QString>("gathered");
    QTest::addColumn<bool>("fp32Reduce");
    QTest::addColumn<double>("shardGroup");
    QTest::addColumn<QString>("field");
    QTest::newRow("two copies without ZeRO") << 0 << true << "none" << false << 0.0 << "two-gradient-copies";
    QTest::newRow("two copies under ZeRO-3") << 3 << true << "none" << false << 0.0 << "two-gradient-copies";
    QTest::newRow("gathered without ZeRO-3") << 2 << false << "fsdp" << false << 0.0 << "gathered-layers";
    QTest::newRow("fp32 reduce without fsdp") << 3 << false << "deepspeed" << true << 0.0 << "fp32-reduce";
    QTest::newRow("shard group not dividing") << 3 << false << "none" << false << 3.0 << "shard-group";
    QTest::newRow("shard group without ZeRO") << 0 << false << "none" << false << 4.0 << "shard-group";
}

void TestShardedLayouts::refusals() {
    QFETCH(int, zero);
    QFETCH(bool, twoCopies);
    QFETCH(QString, gathered);
    QFETCH(bool, fp32Reduce);
    QFETCH(double, shardGroup);
    QFETCH(QString, field);
    AccountingInput in = preset("gpt2-small", 8, zero);
    in.sharding.twoGradientCopies = twoCopies;
    in.sharding.gathered = *gatheredLayersFromName(gathered.toStdString());
    in.sharding.fp32Reduce = fp32Reduce;
    in.sharding.shardGroup = shardGroup;
    const InputError e = validate(in);
    QCOMPARE(QString::fromStdString(e.field), field);
    QVERIFY(!e.message.empty());
    // fp32 training has no fp32 partition to add.
    AccountingInput fp32 = preset("gpt2-small", 8, 2);
    fp32.precision = PrecisionRecipe::fp32;
    fp32.sharding.twoGradientCopies = true;
    QCOMPARE(QString::fromStdString(validate(fp32).field), QStringLiteral("two-gradient-copies"));
}

void TestShardedLayouts::phaseOnlyPeakCountsTheWorkingSet() {
    // Llama-3-8B on tp 8 × dp 8, ZeRO-3: the timeline has phases only, its peak is the sum, and the sum
    // holds the FSDP working set of this GPU's tp-split layer and root above the shards.
    AccountingInput in = preset("llama3-8b", 64, 3);
    in.parallel.tp = 8;
    const AccountingResult shards = run(in);
    in.sharding.gathered = GatheredLayers::fsdp;
    const AccountingResult r = run(in);
    QVERIFY(r.gathered.backwardBytes > 0);
    QCOMPARE(r.memory.total.value, shards.memory.total.value + r.gathered.backwardBytes);
    QCOMPARE(r.peakMemory.value, r.memory.total.value);
}

void TestShardedLayouts::interleavedBubble_data() {
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("m");
    QTest::addColumn<double>("v");
    QTest::addColumn<double>("ratio");
    // Narayanan et al. 2021 ("Efficient Large-Scale Language Model Training on GPU Clusters"), section
    // 2.2.2: bubble time fraction = (1/v)·(p − 1)/m of the ideal step; Napkin reports the idle share of
    // the whole step, f = (p − 1)/(v·m + p − 1), so f/(1 − f) is the paper's figure.
    QTest::newRow("1F1B, p 8, m 8: 7/8") << 8.0 << 8.0 << 1.0 << 7.0 / 8;
    QTest::newRow("interleaved v 2, p 8, m 8: 7/16") << 8.0 << 8.0 << 2.0 << 7.0 / 16;
    QTest::newRow("interleaved v 4, p 4, m 8: 3/32") << 4.0 << 8.0 << 4.0 << 3.0 / 32;
}

void TestShardedLayouts::interleavedBubble() {
    QFETCH(double, p);
    QFETCH(double, m);
    QFETCH(double, v);
    QFETCH(double, ratio);
    AccountingInput in = preset("llama3-8b", p, 0);
    in.parallel.pp = p;
    in.parallel.microbatches = m;
    in.parallel.virtualStages = v;
    const double f = run(in).pipelineBubbleFraction.value;
    QCOMPARE(f / (1 - f), ratio);
}

void TestShardedLayouts::interleavedInFlight_data() {
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("m");
    QTest::addColumn<double>("v");
    QTest::addColumn<double>("stage");
    QTest::addColumn<double>("expected");
    // Megatron-LM megatron/training/theoretical_memory_usage.py: the first stage's activations × p ×
    // interleaved_schedule_memory_penalty = 1 + (p − 1)/(p·v).
    QTest::newRow("first, p 8, v 2: 8 × (1 + 7/16)") << 8.0 << 64.0 << 2.0 << 0.0 << 8 * (1 + 7.0 / 16);
    QTest::newRow("first, p 4, v 4: 4 × (1 + 3/16)") << 4.0 << 16.0 << 4.0 << 0.0 << 4 * (1 + 3.0 / 16);
    // megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving: warm-up
    // (p − i − 1)·2 + (v − 1)·p chunk micro-batches, plus the one in 1F1B, each 1/v of the stage.
    QTest::newRow("last, p 8, v 2: (8 + 1)/2") << 8.0 << 64.0 << 2.0 << 7.0 << 4.5;
    QTest::newRow("stage 2, p 4, v 2: (2 + 4 + 1)/2") << 4.0 << 16.0 << 2.0 << 2.0 << 3.5;
    // 1F1B (Narayanan et al. 2021, section 2.2.1): p − i, at most m.
    QTest::newRow("1F1B stage 1, p 4, m 8: 3") << 4.0 << 8.0 << 1.0 << 1.0 << 3.0;
    QTest::newRow("1F1B stage 0, p 4, m 2: 2") << 4.0 << 2.0 << 1.0 << 0.0 << 2.0;
}

void TestShardedLayouts::interleavedInFlight() {
    QFETCH(double, p);
    QFETCH(double, m);
    QFETCH(double, v);
    QFETCH(double, stage);
    QFETCH(double, expected);
    ParallelLayout l;
    l.pp = p;
    l.microbatches = m;
    l.virtualStages = v;
    QCOMPARE(microBatchesInFlight(l, stage), expected);
    if (stage == 0 && v > 1) { // the first stage's ledger holds them: Llama-3-8B (32 layers) on p GPUs
        AccountingInput in = preset("llama3-8b", p, 0);
        in.parallel = l;
        const AccountingResult r = run(in);
        QCOMPARE(r.pipelineStages.front().microBatchesInFlight, expected);
        QCOMPARE(r.pipelineStages.front().activationBytes,
                 r.pipelineStages.front().microBatchesInFlight *
                         (r.pipelineStages[1].activationBytes / r.pipelineStages[1].microBatchesInFlight));
    }
}

void TestShardedLayouts::interleavedRefusals() {
    AccountingInput in = preset("gpt2-small", 4, 0);
    in.parallel.pp = 4;
    in.parallel.microbatches = 8;
    in.parallel.virtualStages = 2; // 12 layers: 4 × 2 does not divide them
    QCOMPARE(QString::fromStdString(validate(in).field), QStringLiteral("virtual-stages"));
    in.parallel.virtualStages = 3;
    in.parallel.microbatches = 6; // not a multiple of p
    QCOMPARE(QString::fromStdString(validate(in).field), QStringLiteral("virtual-stages"));
    in.parallel.microbatches = 8;
    QVERIFY(validate(in).ok());
    in.parallel.pp = 1;
    in.gpus = 1;
    QCOMPARE(QString::fromStdString(validate(in).field), QStringLiteral("virtual-stages"));
}

void TestShardedLayouts::perStageTable() {
    // GPT-2 small (model_presets.cpp: d 768, a 12, L 12, V 50257, S 1024) on pp 4, m 4, batch 1,
    // mixed-bf16 AdamW (16 B per parameter), no ZeRO, by hand:
    //   a layer 12·d² + 13·d = 7,087,872 parameters; 3 per stage = 21,263,616;
    //   first + V·d + S·d = 38,597,376 + 786,432; last + the final norm 2·d and the tied embedding's copy V·d;
    //   activations per layer and micro-batch s·b·h·(34 + 5·a·s/h) = 1024·768·114 = 89,653,248 B
    //   (Korthikanti et al. 2022), stage i holding min(4 − i, 4) micro-batches of 3 layers; the last adds
    //   the fp32 logits 4·s·b·V = 205,852,672 B.
    AccountingInput in = preset("gpt2-small", 4, 0);
    in.parallel.pp = 4;
    in.parallel.microbatches = 4;
    const AccountingResult r = run(in);
    QCOMPARE(r.pipelineStages.size(), std::size_t(4));
    const double layers = 3 * 7087872.0, layer = 89653248.0;
    const double parameters[] = {layers + 38597376 + 786432, layers, layers, layers + 1536 + 38597376};
    const double activations[] = {12 * layer, 9 * layer, 6 * layer, 3 * layer + 205852672};
    const char* holds[] = {"embedding", "", "", "head and loss"};
    for (std::size_t i = 0; i < 4; ++i) {
        const PipelineStageRow& row = r.pipelineStages[i];
        QCOMPARE(row.index, double(i));
        QCOMPARE(row.layers, 3.0);
        QCOMPARE(QString::fromStdString(row.holds), QString::fromLatin1(holds[i]));
        QCOMPARE(row.parameters, parameters[i]);
        QCOMPARE(row.statesBytes, 16 * parameters[i]);
        QCOMPARE(row.activationBytes, activations[i]);
        QCOMPARE(row.totalBytes, row.statesBytes + row.activationBytes);
    }
    // memory_bytes is the most loaded stage's: the first here.
    QCOMPARE(r.memory.total.value, r.pipelineStages.front().totalBytes);
    // No pipeline, no table.
    in.parallel = {};
    in.gpus = 1;
    QVERIFY(run(in).pipelineStages.empty());
}

void TestShardedLayouts::hybridSharding() {
    // HSDP (PyTorch FSDP's ShardingStrategy.HYBRID_SHARD: "shard within a node, replicate across nodes";
    // llm-analysis's rdp_size): 1e9 parameters on 16 GPUs, ZeRO-3 in groups of 8. Each rank holds the
    // ZeRO paper's (2 + 2 + 12)Ψ/N_d with N_d = 8, not 16.
    AccountingInput in = denseModel(1e9, 16, 3);
    in.sharding.shardGroup = 8;
    const AccountingResult r = run(in);
    QCOMPARE(states(r), 16e9 / 8);
    // The ledger: ZeRO-3's gathers and reduce-scatter within the 8 (ring: (n−1)/n), then the gradient shard
    // P·2 B/8 all-reduced across the 2 replicas: 2·(1/2)·2.5e8.
    double gathers = 0, reduceScatter = 0, acrossReplicas = 0;
    for (const CommunicationItem& i : r.communication.items) {
        if (i.name.rfind("parameter all-gather", 0) == 0)
            gathers += i.bytes;
        else if (i.name == "gradient reduce-scatter")
            reduceScatter = i.bytes;
        else if (i.name == "gradient-shard all-reduce across replicas (HSDP)")
            acrossReplicas = i.bytes;
    }
    QCOMPARE(gathers, 2 * 7.0 / 8 * 1e9 * 2);
    QCOMPARE(reduceScatter, 7.0 / 8 * 1e9 * 2);
    QCOMPARE(acrossReplicas, 2 * 0.5 * 1e9 * 2 / 8);
    // A group of all 16 is plain ZeRO-3.
    in.sharding.shardGroup = 16;
    QCOMPARE(states(run(in)), 16e9 / 16);
}

QTEST_APPLESS_MAIN(TestShardedLayouts)
#include "tst_sharded_layouts.moc"
