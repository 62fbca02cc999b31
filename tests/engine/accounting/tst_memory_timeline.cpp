// SPDX-License-Identifier: GPL-3.0-or-later
// Memory over one training step: the lecture's Cruncher written out by hand event by event, small
// linear2 and dense cases by hand, and the timeline's agreement with memory_bytes for every model kind,
// recipe, ZeRO stage and recompute mode.
#include "engine/accounting/memory_timeline.h"
#include "engine/models/model_presets.h"
#include "engine/accounting/pytorch_eager_optimizer.h"
#include "tests/support/accounting_inputs.h"

#include <QtTest>

#include <algorithm>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::AccountingInput)
Q_DECLARE_METATYPE(napkin::TrainingStep)

namespace {

struct Row {
    const char* event;
    StepBytes bytes;
};

// QCOMPARE on doubles is fuzzy (qFuzzyCompare); these must agree to the bit.
#define COMPARE_EXACT(actual, expected)                                                                      \
    QVERIFY2((actual) == (expected),                                                                         \
             QByteArray::number(actual, 'g', 17) + " != " + QByteArray::number(expected, 'g', 17))

void compareTimeline(const MemoryTimeline& t, const std::vector<Row>& expected) {
    QCOMPARE(t.events.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const TimelineEvent& e = t.events[i];
        const QByteArray where = QByteArray::number(static_cast<int>(i)) + " " + expected[i].event;
        QVERIFY2(stepEventName(e.event) == expected[i].event,
                 where + " is " + stepEventName(e.event).c_str());
        const StepBytes& want = expected[i].bytes;
        QVERIFY2(e.bytes == want, where + ": total " + QByteArray::number(e.bytes.total()) + ", want " +
                                      QByteArray::number(want.total()));
    }
}

} // namespace

class TestMemoryTimeline : public QObject {
    Q_OBJECT
private slots:
    void lectureCruncher();
    void lectureCruncherFirstStep();
    void linear2ByHand();
    void densePhasesOnly();
    void transformerRecompute_data();
    void transformerRecompute();
    void agreesWithMemoryBytes_data();
    void agreesWithMemoryBytes();
    void pytorchEagerOptimizerStep_data();
    void pytorchEagerOptimizerStep();
    void pytorchEagerParameterListIsBounded();
    void eventNames();
};

// The lecture's Cruncher: D = 4, L = 2, B = 2, AdaGrad, fp32. The napkin sum is params 36·4 = 144 B,
// grads 144, state 144, activations B·D·L·4 = 64: 496 B. Bytes per event are (parameters, gradients,
// master weights, optimizer state, activations, temporaries), at the event's high-water mark.
//   h1 = X·W1, h2 = h1·W2 (B×D = 32 B each, kept: W2's and the head's dW need them); y = h2·w (B = 8 B).
//   backward loss: dL/dy (8 B) is made from y; y is then freed.
//   backward head: dw (4·4 = 16 B) and dL/dh2 (32 B) are made; then dL/dy and h2 (dw's input) are freed.
//   backward layer 2: dW2 (64 B) and dL/dh1 (32 B) are made, while dL/dh2 and h1 are still held: 464 B.
//   backward layer 1: dW1 (64 B); no dL/dX, X is data. h1 is already gone, dL/dh1 still held: 464 B.
//   optimizer step: in place, element by element (Napkin's trainers fuse the update): 432 B.
//   zero_grad(set_to_none=True): the 144 B of gradients go; 288 B remain until the next forward.
// The peak, 464 B at backward layer 2, is below the 496-byte sum: h2 (32 B) is freed before dW2 and dW1
// (64 B not yet made) exist, while two dL/dh temporaries (64 B) are held, which the sum leaves out:
// 496 − 32 − 64 + 64 = 464. The sum's four components never coexist at their full size. The optimizer
// adds no temporaries here; the lecture's own `p.data -= lr * grad / torch.sqrt(g2 + 1e-5)` in PyTorch
// would hold three D×D temporaries (3·64 = 192 B) on top of 432 B at its step: 624 B, above the sum
// (docs/memory-timeline.md).
void TestMemoryTimeline::lectureCruncher() {
    const AccountingInput in = cruncherInput(4, 2, 2, OptimizerKind::adagrad);
    const AccountingResult r = accountValid(in);
    QCOMPARE(r.memory.total.value, 496.0);
    const MemoryTimeline t = memoryTimeline(in, r);
    compareTimeline(t, {{"start", {144, 0, 0, 144, 0, 0}},
                        {"forward layer 1", {144, 0, 0, 144, 32, 0}},
                        {"forward layer 2", {144, 0, 0, 144, 64, 0}},
                        {"forward head", {144, 0, 0, 144, 64, 8}},
                        {"backward loss", {144, 0, 0, 144, 64, 16}},
                        {"backward head", {144, 16, 0, 144, 64, 40}},
                        {"backward layer 2", {144, 80, 0, 144, 32, 64}},
                        {"backward layer 1", {144, 144, 0, 144, 0, 32}},
                        {"optimizer step", {144, 144, 0, 144, 0, 0}},
                        {"zero_grad", {144, 0, 0, 144, 0, 0}}});
    QCOMPARE(t.peakBytes, 464.0);
    QCOMPARE(t.peakIndex, std::size_t(6));
    QCOMPARE(QString::fromStdString(t.peakFormula),
             QStringLiteral("at backward layer 2: 144 + 80 + 0 + 144 + 32 + 64 = 464 B"));
    QVERIFY(t.peakBytes < r.memory.total.value);
}

// The first step: AdaGrad's Σg² (144 B) is created at the update (as the lecture's AdaGrad does, and
// torch.optim's Adam and momentum SGD), so the step peaks there: 144 + 144 + 144 = 432 B.
void TestMemoryTimeline::lectureCruncherFirstStep() {
    const AccountingInput in = cruncherInput(4, 2, 2, OptimizerKind::adagrad);
    const MemoryTimeline t = memoryTimeline(in, accountValid(in), TrainingStep::first);
    compareTimeline(t, {{"start", {144, 0, 0, 0, 0, 0}},
                        {"forward layer 1", {144, 0, 0, 0, 32, 0}},
                        {"forward layer 2", {144, 0, 0, 0, 64, 0}},
                        {"forward head", {144, 0, 0, 0, 64, 8}},
                        {"backward loss", {144, 0, 0, 0, 64, 16}},
                        {"backward head", {144, 16, 0, 0, 64, 40}},
                        {"backward layer 2", {144, 80, 0, 0, 32, 64}},
                        {"backward layer 1", {144, 144, 0, 0, 0, 32}},
                        {"optimizer step", {144, 144, 0, 144, 0, 0}},
                        {"zero_grad", {144, 0, 0, 144, 0, 0}}});
    QCOMPARE(t.peakBytes, 432.0);
    QCOMPARE(stepEventName(t.events[t.peakIndex].event), std::string("optimizer step"));
}

// linear2 with D = 2, K = 3, B = 1, SGD, fp32: W1 2×2 (16 B), W2 2×3 (24 B); h = X·W1 (8 B, kept),
// out = h·W2 (12 B). Sum: 40 + 40 + 0 + 8 = 88 B; peak 40 + 24 + 8 + 20 = 92 B at backward head, above
// the sum: dL/dout (12 B) and dL/dh (8 B) coexist with h and W2's gradient.
void TestMemoryTimeline::linear2ByHand() {
    AccountingInput in;
    in.model.kind = ModelKind::linear2;
    in.model.dim = 2;
    in.model.out = 3;
    in.batch = 1;
    in.optimizer = OptimizerKind::sgd;
    const AccountingResult r = accountValid(in);
    QCOMPARE(r.memory.total.value, 88.0);
    const MemoryTimeline t = memoryTimeline(in, r);
    compareTimeline(t, {{"start", {40, 0, 0, 0, 0, 0}},
                        {"forward layer 1", {40, 0, 0, 0, 8, 0}},
                        {"forward head", {40, 0, 0, 0, 8, 12}},
                        {"backward loss", {40, 0, 0, 0, 8, 24}},
                        {"backward head", {40, 24, 0, 0, 8, 20}},
                        {"backward layer 1", {40, 40, 0, 0, 0, 8}},
                        {"optimizer step", {40, 40, 0, 0, 0, 0}},
                        {"zero_grad", {40, 0, 0, 0, 0, 0}}});
    QCOMPARE(t.peakBytes, 92.0);
    QCOMPARE(stepEventName(t.events[t.peakIndex].event), std::string("backward head"));
}

// dense: no architecture, so phases only and no activations: the peak is the model states at the
// optimizer step, which is the sum. 1e9 parameters, mixed-bf16, AdamW: 2 + 2 + 4 + 8 = 16 B each.
void TestMemoryTimeline::densePhasesOnly() {
    AccountingInput in;
    in.model.kind = ModelKind::dense;
    in.model.parameters = 1e9;
    in.precision = PrecisionRecipe::mixedBf16;
    const AccountingResult r = accountValid(in);
    const MemoryTimeline t = memoryTimeline(in, r);
    compareTimeline(t, {{"start", {2e9, 0, 4e9, 8e9, 0, 0}},
                        {"forward", {2e9, 0, 4e9, 8e9, 0, 0}},
                        {"backward", {2e9, 2e9, 4e9, 8e9, 0, 0}},
                        {"optimizer step", {2e9, 2e9, 4e9, 8e9, 0, 0}},
                        {"zero_grad", {2e9, 0, 4e9, 8e9, 0, 0}}});
    QCOMPARE(t.peakBytes, r.memory.total.value);
    QCOMPARE(t.peakIndex, std::size_t(2));
}

// A transformer layer's activations under each recompute mode, from Korthikanti et al. 2022 (16-bit,
// per layer): none s·b·h·(34 + 5·a·s/h), selective 34·s·b·h, full 2·s·b·h. A recompute event re-creates
// the difference from `none` just before the layer's backward. GPT-2 small shape, bf16, s = 1024, b = 2:
// s·b·h = 1,572,864; 5·a·s/h = 80.
void TestMemoryTimeline::transformerRecompute_data() {
    QTest::addColumn<Recompute>("recompute");
    QTest::addColumn<double>("keptPerLayer");
    QTest::addColumn<double>("recreatedPerLayer");
    const double sbh = 1024.0 * 2 * 768;
    QTest::newRow("none") << Recompute::none << sbh * 114 << 0.0;
    QTest::newRow("selective") << Recompute::selective << sbh * 34 << sbh * 80;
    QTest::newRow("full") << Recompute::full << sbh * 2 << sbh * 112;
}

void TestMemoryTimeline::transformerRecompute() {
    QFETCH(Recompute, recompute);
    QFETCH(double, keptPerLayer);
    QFETCH(double, recreatedPerLayer);
    AccountingInput in = gptInput(768, 12, 12, 50257, 1024, 2);
    in.precision = PrecisionRecipe::mixedBf16;
    in.recompute = recompute;
    const AccountingResult r = accountValid(in);
    const MemoryTimeline t = memoryTimeline(in, r);
    const double logits = 4.0 * 1024 * 2 * 50257;
    const auto at = [&](const std::string& name) -> const StepBytes& {
        for (const TimelineEvent& e : t.events)
            if (stepEventName(e.event) == name)
                return e.bytes;
        qFatal("no event %s", name.c_str());
    };
    QCOMPARE(at("forward layer 1").activations, keptPerLayer);
    QCOMPARE(at("forward layer 12").activations, 12 * keptPerLayer);
    QCOMPARE(at("forward head").activations, 12 * keptPerLayer + logits);
    COMPARE_EXACT(at("forward head").activations, r.memory.activations.value);
    QCOMPARE(at("backward loss").temporary, logits); // dL/dlogits, fp32
    const std::size_t recomputes =
        std::count_if(t.events.begin(), t.events.end(),
                      [](const TimelineEvent& e) { return e.event.phase == StepPhase::recompute; });
    QCOMPARE(recomputes, recompute == Recompute::none ? std::size_t(0) : std::size_t(12));
    if (recompute != Recompute::none)
        QCOMPARE(at("recompute layer 12").activations, 12 * keptPerLayer + recreatedPerLayer);
    // start, 12 forward, head, loss, head, [12 recompute,] 12 backward, embeddings, optimizer, zero_grad
    QCOMPARE(t.events.size(), std::size_t(recompute == Recompute::none ? 31 : 43));
}

void TestMemoryTimeline::agreesWithMemoryBytes_data() {
    QTest::addColumn<AccountingInput>("input");
    QTest::newRow("lecture cruncher") << cruncherInput(4, 2, 2, OptimizerKind::adagrad);
    QTest::newRow("cruncher L=1 SGD") << cruncherInput(16, 1, 3, OptimizerKind::sgd);
    QTest::newRow("cruncher D=1024 L=4 B=256 Adam") << cruncherInput(1024, 4, 256, OptimizerKind::adam);
    AccountingInput c = cruncherInput(64, 3, 8, OptimizerKind::adamw);
    c.precision = PrecisionRecipe::mixedBf16;
    c.gpus = 8;
    c.zeroStage = 2;
    QTest::newRow("cruncher mixed-bf16 ZeRO-2 on 8") << c;
    AccountingInput l2;
    l2.model.kind = ModelKind::linear2;
    l2.model.dim = 32768;
    l2.model.out = 8192;
    l2.batch = 16384;
    QTest::newRow("lecture linear2") << l2;
    AccountingInput d;
    d.model.kind = ModelKind::dense;
    d.model.parameters = 70e9;
    d.precision = PrecisionRecipe::mixedBf16;
    d.gpus = 1024;
    d.zeroStage = 3;
    QTest::newRow("dense 70B ZeRO-3 on 1024") << d;
    for (Recompute rc : allRecomputes()) {
        AccountingInput g = gptInput(768, 12, 12, 50257, 1024, 8);
        g.recompute = rc;
        QTest::newRow(("GPT-2 small fp32, recompute " + std::string(recomputeName(rc))).c_str()) << g;
        AccountingInput big = gptInput(12288, 96, 96, 50257, 2048, 1);
        big.precision = PrecisionRecipe::mixedBf16;
        big.gpus = 64;
        big.zeroStage = 1;
        big.recompute = rc;
        QTest::newRow(("GPT-3 mixed-bf16 ZeRO-1, recompute " + std::string(recomputeName(rc))).c_str())
            << big;
    }
    AccountingInput f = gptInput(1000, 3, 8, 1234, 77, 3); // 5·a·s/h = 3.08: not a whole number of bytes
    f.model.ffnMult = 2.5;
    f.precision = PrecisionRecipe::fp16;
    f.recompute = Recompute::selective;
    QTest::newRow("odd transformer fp16 selective") << f;
    // pytorch-eager GPT-2 without dropout: op by op (pytorch_eager_step_ops.h), each event a high-water mark.
    AccountingInput eager = gptInput(768, 12, 12, 50257, 1024, 8);
    eager.model.dropout = false;
    eager.model.activationsOf = ActivationProfile::pytorchEager;
    eager.optimizerImplementation = OptimizerImplementation::fused; // an update with no temporaries
    QTest::newRow("GPT-2 small pytorch-eager op by op, fp32") << eager;
    eager.model.embeddings = EmbeddingTying::untied;
    eager.model.bias = false;
    eager.batch = 1;
    eager.precision = PrecisionRecipe::mixedBf16;
    eager.gpus = 8;
    eager.zeroStage = 1;
    QTest::newRow("GPT-2 small pytorch-eager op by op, untied, no bias, batch 1, mixed-bf16 ZeRO-1") << eager;
    // pytorch-eager Llama-style in fp32: op by op too (pytorch_eager_llama_ops.h), GQA and untied.
    AccountingInput eagerLlama;
    eagerLlama.model = findModelPreset("llama3-8b")->model;
    eagerLlama.model.activationsOf = ActivationProfile::pytorchEager;
    eagerLlama.model.attentionImpl = AttentionImpl::eager;
    eagerLlama.model.seq = 2048;
    eagerLlama.batch = 2;
    eagerLlama.optimizerImplementation = OptimizerImplementation::fused;
    QTest::newRow("llama3-8b pytorch-eager op by op, fp32") << eagerLlama;
    // The architectures of engine/models/model_presets.h, data parallel only: per layer, with their
    // own ledgers (GQA, SwiGLU, flash attention, experts).
    for (const char* id : {"llama3-8b", "mixtral-8x7b"}) {
        AccountingInput a;
        a.model = findModelPreset(id)->model;
        a.precision = PrecisionRecipe::mixedBf16;
        a.gpus = 8;
        a.zeroStage = 1;
        QTest::newRow((std::string(id) + " ZeRO-1 on 8").c_str()) << a;
    }
    // Tensor, pipeline and expert parallelism: phases only, from one GPU's figures (the first stage's).
    AccountingInput tp;
    tp.model = findModelPreset("llama3-8b")->model;
    tp.precision = PrecisionRecipe::mixedBf16;
    tp.gpus = 8;
    tp.parallel.tp = 8;
    tp.parallel.sp = true;
    QTest::newRow("llama3-8b tp 8, sp") << tp;
    AccountingInput pp = tp;
    pp.model = findModelPreset("llama3-70b")->model;
    pp.gpus = 64;
    pp.parallel.pp = 4;
    pp.parallel.microbatches = 8;
    pp.zeroStage = 1;
    QTest::newRow("llama3-70b tp 8 × pp 4, dp 2") << pp;
    AccountingInput ep;
    ep.model = findModelPreset("mixtral-8x7b")->model;
    ep.precision = PrecisionRecipe::mixedBf16;
    ep.gpus = 16;
    ep.parallel.tp = 2;
    ep.parallel.ep = 8;
    QTest::newRow("mixtral tp 2, ep 8 on 16") << ep;
}

// The timeline's components at the right events are memory_bytes' to the bit, for every model kind.
void TestMemoryTimeline::agreesWithMemoryBytes() {
    QFETCH(AccountingInput, input);
    const AccountingResult r = accountValid(input);
    for (TrainingStep step : {TrainingStep::steady, TrainingStep::first}) {
        const MemoryTimeline t = memoryTimeline(input, r, step);
        QVERIFY(t.events.size() >= 5);
        QCOMPARE(t.step, step);
        QCOMPARE(t.events.front().event.phase, StepPhase::start);
        const StepBytes& optimizer = t.events[t.events.size() - 2].bytes;
        QCOMPARE(t.events[t.events.size() - 2].event.phase, StepPhase::optimizer);
        QCOMPARE(t.events.back().event.phase, StepPhase::zeroGrad);
        double maxActivations = 0, maxTotal = 0;
        for (const TimelineEvent& e : t.events) {
            const StepBytes& b = e.bytes;
            COMPARE_EXACT(b.parameters, r.memory.parameters.value);
            COMPARE_EXACT(b.masterWeights, r.memory.masterWeights.value);
            if (step == TrainingStep::steady || e.event.phase == StepPhase::optimizer ||
                e.event.phase == StepPhase::zeroGrad)
                COMPARE_EXACT(b.optimizerState, r.memory.optimizerState.value);
            else
                QCOMPARE(b.optimizerState, 0.0);
            for (double v : {b.gradients, b.activations, b.temporary})
                QVERIFY2(v >= 0, stepEventName(e.event).c_str());
            QVERIFY(b.gradients <= r.memory.gradients.value);
            maxActivations = std::max(maxActivations, b.activations);
            maxTotal = std::max(maxTotal, b.total());
        }
        // Gradients are all there at the update; activations all there at the end of forward.
        COMPARE_EXACT(optimizer.gradients, r.memory.gradients.value);
        QCOMPARE(optimizer.activations, 0.0);
        QCOMPARE(optimizer.temporary, 0.0);
        const auto backward = std::find_if(t.events.begin(), t.events.end(), [](const TimelineEvent& e) {
            return e.event.phase == StepPhase::backward;
        });
        QVERIFY(backward != t.events.begin() && backward != t.events.end());
        COMPARE_EXACT((backward - 1)->bytes.activations, r.memory.activations.value);
        // Recompute re-creates one layer's dropped activations in backward, which the formula leaves
        // out: only then may a later event hold more activations than the end of forward.
        if (input.recompute == Recompute::none || input.model.kind != ModelKind::transformer)
            COMPARE_EXACT(maxActivations, r.memory.activations.value);
        else
            QVERIFY(maxActivations >= r.memory.activations.value);
        QCOMPARE(t.events.front().bytes.activations, 0.0);
        QCOMPARE(t.events.back().bytes.gradients, 0.0);
        QCOMPARE(t.events.back().bytes.total(),
                 r.memory.parameters.value + r.memory.masterWeights.value + r.memory.optimizerState.value);
        // Model states, gradients included, coexist at the update: the peak is at least that.
        QCOMPARE(optimizer.total(), r.memory.total.value - r.memory.activations.value);
        COMPARE_EXACT(t.peakBytes, maxTotal);
        QCOMPARE(t.events[t.peakIndex].bytes.total(), maxTotal);
        for (std::size_t i = 0; i < t.peakIndex; ++i)
            QVERIFY(t.events[i].bytes.total() < maxTotal);
    }
}

// torch 1.13's single-tensor torch.optim holds per-parameter temporaries at its update's high-water
// mark (pytorch_eager_optimizer.h). Each figure is torch.profiler(profile_memory=True)'s largest running
// sum inside optimizer.step() above what the step began with, less nothing (the CPU allocator's bytes;
// for a first step, less the state and AdamW's 0-d `step` tensors), measured by
// tests/validation/check_memory_timeline.py's models on Debian's torch 1.13 (docs/memory-timeline.md).
void TestMemoryTimeline::pytorchEagerOptimizerStep_data() {
    QTest::addColumn<AccountingInput>("input");
    QTest::addColumn<TrainingStep>("step");
    QTest::addColumn<double>("temporaries");
    // nanoGPT GPT-2 d 40, 5 heads, 2 layers, V 53, s 11, f 160, no biases, untied, batch 3.
    AccountingInput gpt = gptInput(40, 2, 5, 53, 11, 3);
    gpt.model.ffnDim = 160;
    gpt.model.bias = false;
    gpt.model.embeddings = EmbeddingTying::untied;
    gpt.model.dropout = false;
    gpt.model.activationsOf = ActivationProfile::pytorchEager;
    gpt.precision = PrecisionRecipe::fp32;
    gpt.optimizerImplementation = OptimizerImplementation::singleTensor; // torch 1.13's, profiled on the CPU
    const auto with = [](AccountingInput in, OptimizerKind kind) {
        in.optimizer = kind;
        return in;
    };
    const auto runAs = [](AccountingInput in, OptimizerImplementation implementation) {
        in.optimizerImplementation = implementation;
        return in;
    };
    // 3 × 25,600 (c_fc then c_proj of a layer, the same size) + 12 B of 0-d scalars
    QTest::newRow("gpt2 adamw") << with(gpt, OptimizerKind::adamw) << TrainingStep::steady << 76812.0;
    QTest::newRow("gpt2 adam first") << with(gpt, OptimizerKind::adam) << TrainingStep::first << 76812.0;
    QTest::newRow("gpt2 adagrad") << with(gpt, OptimizerKind::adagrad) << TrainingStep::steady << 51212.0;
    QTest::newRow("gpt2 rmsprop") << with(gpt, OptimizerKind::rmsprop) << TrainingStep::steady << 51200.0;
    QTest::newRow("gpt2 sgd") << with(gpt, OptimizerKind::sgd) << TrainingStep::steady << 292.0;
    QTest::newRow("gpt2 momentum") << with(gpt, OptimizerKind::momentum) << TrainingStep::steady << 292.0;
    QTest::newRow("gpt2 momentum first") << with(gpt, OptimizerKind::momentum) << TrainingStep::first << 0.0;
    AccountingInput bf16 = with(gpt, OptimizerKind::adamw);
    bf16.precision = PrecisionRecipe::bf16;
    QTest::newRow("gpt2 bf16 adamw") << bf16 << TrainingStep::steady << 38410.0; // 3 × 12,800 + 8 + 2
    // Llama-style d 48, 6 heads, 2 KV heads, d_h 8, 3 layers, V 37, s 7, f 100, untied, batch 3.
    AccountingInput llama = with(gpt, OptimizerKind::adamw);
    llama.model.dModel = 48;
    llama.model.heads = 6;
    llama.model.kvHeads = 2;
    llama.model.headDim = 8;
    llama.model.layers = 3;
    llama.model.vocab = 37;
    llama.model.seq = 7;
    llama.model.ffnDim = 100;
    llama.model.mlp = MlpKind::swiglu;
    llama.model.norm = NormKind::rmsnorm;
    llama.model.position = PositionKind::rope;
    QTest::newRow("llama adamw") << llama << TrainingStep::steady << 57612.0;
    // Every later layer repeats layer 2's neighbours: a deeper stack holds the same step temporaries.
    AccountingInput deep = llama;
    deep.model.layers = 1000;
    QTest::newRow("llama adamw, 1000 layers") << deep << TrainingStep::steady << 57612.0;
    AccountingInput megatron = with(gpt, OptimizerKind::adamw);
    megatron.model.activationsOf = ActivationProfile::megatron; // fused and in place
    QTest::newRow("megatron adamw") << megatron << TrainingStep::steady << 0.0;
    // torch 2.11 on an H100 (scripts/measure-optimizer-temporaries.py): foreach holds lists as large as all
    // the parameters, k of them (AdamW 1, Adagrad 2, SGD 0); fused nothing. GPT-2 d 40's 43,280 parameters
    // are 173,120 B in fp32.
    const auto foreach = OptimizerImplementation::forEach;
    QTest::newRow("gpt2 adamw foreach") << runAs(with(gpt, OptimizerKind::adamw), foreach) << TrainingStep::steady
                                        << 173120.0;
    QTest::newRow("gpt2 adam foreach first") << runAs(with(gpt, OptimizerKind::adam), foreach)
                                             << TrainingStep::first << 173120.0;
    QTest::newRow("gpt2 rmsprop foreach") << runAs(with(gpt, OptimizerKind::rmsprop), foreach)
                                          << TrainingStep::steady << 173120.0;
    QTest::newRow("gpt2 adagrad foreach") << runAs(with(gpt, OptimizerKind::adagrad), foreach)
                                          << TrainingStep::steady << 2 * 173120.0;
    QTest::newRow("gpt2 momentum foreach") << runAs(with(gpt, OptimizerKind::momentum), foreach)
                                           << TrainingStep::steady << 0.0;
    QTest::newRow("gpt2 adamw fused") << runAs(with(gpt, OptimizerKind::adamw), OptimizerImplementation::fused)
                                      << TrainingStep::steady << 0.0;
    // The measured 2-layer bf16 Llama 3 8B (scripts/gpu-bench.sh, H100): AdamW foreach held its parameters'
    // 2,973,802,496 B at the step's peak (napkin's whole prediction was within 2.1 MB of the allocator's).
    AccountingInput llama3 = with(gpt, OptimizerKind::adamw);
    llama3.model = findModelPreset("llama3-8b")->model;
    llama3.model.layers = 2;
    llama3.model.seq = 512;
    llama3.model.attentionImpl = AttentionImpl::eager;
    llama3.model.activationsOf = ActivationProfile::pytorchEager;
    llama3.batch = 2;
    llama3.precision = PrecisionRecipe::bf16;
    QTest::newRow("llama3-8b 2 layers bf16 adamw foreach") << runAs(llama3, foreach) << TrainingStep::steady
                                                         << 2973802496.0;
}

// The parameter list the optimizer step walks stays two layers and two experts long (it was one entry per
// tensor: a Mixtral-style stack of 1e5 layers × 1024 experts listed 6e8), and names what it stands for.
void TestMemoryTimeline::pytorchEagerParameterListIsBounded() {
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.dModel = 48;
    m.heads = 6;
    m.kvHeads = 2;
    m.layers = 1e5;
    m.vocab = 37;
    m.seq = 7;
    m.ffnDim = 100;
    m.mlp = MlpKind::swiglu;
    m.norm = NormKind::rmsnorm;
    m.position = PositionKind::rope;
    m.experts = 1024;
    m.topK = 2;
    m.bias = false;
    m.embeddings = EmbeddingTying::untied;
    const std::vector<ParameterTensor> tensors = pytorchEagerParameterTensors(m);
    // embed, 2 × (2 norms, q, k, v, o, router, 2 experts × 3), final norm, head
    QCOMPARE(tensors.size(), std::size_t(1 + 2 * (2 + 4 + 1 + 2 * 3) + 1 + 1));
    QCOMPARE(QString::fromStdString(tensors.at(1).name), QStringLiteral("layer 1 attention norm.weight"));
    QCOMPARE(QString::fromStdString(tensors.at(tensors.size() - 3).name),
             QStringLiteral("layer 2–100000 expert 2–1024 down.weight"));
    COMPARE_EXACT(tensors.at(7).elements, 48.0 * 1024); // the router, d × E
}

void TestMemoryTimeline::pytorchEagerOptimizerStep() {
    QFETCH(AccountingInput, input);
    QFETCH(TrainingStep, step);
    QFETCH(double, temporaries);
    const AccountingResult r = accountValid(input);
    const MemoryTimeline t = memoryTimeline(input, r, step);
    const StepBytes& update = t.events.at(t.events.size() - 2).bytes;
    QCOMPARE(stepEventName(t.events.at(t.events.size() - 2).event), std::string("optimizer step"));
    COMPARE_EXACT(update.temporary, temporaries);
    COMPARE_EXACT(t.optimizerTemporaries, temporaries);
    QCOMPARE(t.optimizerTemporariesFormula.empty(), input.model.activationsOf == ActivationProfile::megatron);
    COMPARE_EXACT(update.total(), r.memory.parameters.value + r.memory.gradients.value +
                                      r.memory.optimizerState.value + temporaries);
}

void TestMemoryTimeline::eventNames() {
    QCOMPARE(stepEventName({StepPhase::start, StepPart::model, 0}), std::string("start"));
    QCOMPARE(stepEventName({StepPhase::forward, StepPart::layer, 3}), std::string("forward layer 3"));
    QCOMPARE(stepEventName({StepPhase::recompute, StepPart::layer, 7}), std::string("recompute layer 7"));
    QCOMPARE(stepEventName({StepPhase::backward, StepPart::loss, 0}), std::string("backward loss"));
    QCOMPARE(stepEventName({StepPhase::backward, StepPart::embeddings, 0}),
             std::string("backward embeddings"));
    QCOMPARE(stepEventName({StepPhase::forward, StepPart::model, 0}), std::string("forward"));
    QCOMPARE(stepEventName({StepPhase::optimizer, StepPart::model, 0}), std::string("optimizer step"));
    QCOMPARE(stepEventName({StepPhase::zeroGrad, StepPart::model, 0}), std::string("zero_grad"));
    QCOMPARE(stepPhaseName(StepPhase::zeroGrad), std::string_view("zero_grad"));
    QCOMPARE(trainingStepName(TrainingStep::first), std::string_view("first"));
}

QTEST_APPLESS_MAIN(TestMemoryTimeline)
#include "tst_memory_timeline.moc"
