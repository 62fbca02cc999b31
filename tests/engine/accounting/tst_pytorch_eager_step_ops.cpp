// SPDX-License-Identifier: GPL-3.0-or-later
// A GPT-2 step and a Llama-style one under pytorch-eager op by op (pytorch_eager_step_ops.h,
// pytorch_eager_llama_ops.h): every event is the high-water mark of torch 1.13's CPU allocator inside it,
// to the byte. Each row's figures are torch.profiler
// (profile_memory=True)'s largest running sum inside each event of a steady AdamW step (start and zero_grad:
// the bytes held there), less AdamW's 0-d `step` tensors, the model's buffers and the token and target
// tensors, as tests/validation/check_memory_timeline.py measures them (Debian's torch 1.13.0a0, one
// thread; nanoGPT's model and the Llama-style Decoder from tests/validation/reference_models.py). The
// layer-bound rows peak inside a layer's backward, where the layer-by-layer events held every saved tensor of
// the layer beside all of its gradients and were 1–4 % high.
#include "engine/accounting/memory_timeline.h"
#include "engine/accounting/pytorch_eager_step_ops.h"
#include "tests/support/accounting_inputs.h"
#include "tests/support/torch_step_events.h"

#include <QtTest>

#include <algorithm>
#include <utility>
#include <vector>

using namespace napkin;

using Measured = test::TorchStepEvents;
Q_DECLARE_METATYPE(napkin::AccountingInput)
Q_DECLARE_METATYPE(Measured)

namespace {

#define COMPARE_EXACT(actual, expected)                                                                      \
    QVERIFY2((actual) == (expected),                                                                         \
             QByteArray::number(actual, 'g', 17) + " != " + QByteArray::number(expected, 'g', 17))

/// nanoGPT's GPT-2, dropout off, fp32, AdamW as torch 1.13 runs it on the CPU (single-tensor).
AccountingInput gpt2(double d, double heads, double layers, double vocab, double seq, double ffn, bool bias,
                     EmbeddingTying tying, double batch) {
    AccountingInput in = gptInput(d, layers, heads, vocab, seq, batch);
    in.model.ffnDim = ffn;
    in.model.bias = bias;
    in.model.embeddings = tying;
    in.model.dropout = false;
    in.model.activationsOf = ActivationProfile::pytorchEager;
    in.precision = PrecisionRecipe::fp32;
    in.optimizer = OptimizerKind::adamw;
    in.optimizerImplementation = OptimizerImplementation::singleTensor;
    return in;
}

/// Hugging Face's modeling_llama.py eager path as reference_models.Decoder writes it: RMSNorm, SwiGLU, RoPE,
/// `kvHeads` key/value heads of `headDim`, no biases, dropout off, fp32, AdamW single-tensor.
AccountingInput llama(double d, double heads, double kvHeads, double headDim, double layers, double vocab,
                      double seq, double ffn, EmbeddingTying tying, double batch) {
    AccountingInput in = gpt2(d, heads, layers, vocab, seq, ffn, false, tying, batch);
    in.model.kvHeads = kvHeads;
    in.model.headDim = headDim;
    in.model.mlp = MlpKind::swiglu;
    in.model.norm = NormKind::rmsnorm;
    in.model.position = PositionKind::rope;
    return in;
}

/// Every layer's backward but the first is the same run; layer 1's frees RoPE's tables inside it.
double runsParameters(const EagerStepOps& ops, double layers) {
    return ops.headBackward.end().gradientParameters +
           (layers - 1) * ops.layerBackward.end().gradientParameters +
           ops.firstLayerBackward.end().gradientParameters + ops.embeddingsBackward.end().gradientParameters;
}

} // namespace

class TestPytorchEagerStepOps : public QObject {
    Q_OBJECT
private slots:
    void eventsAreTorchsHighWaterMarks_data();
    void eventsAreTorchsHighWaterMarks();
    void runsCountTheLedgerAndEveryGradient_data();
    void runsCountTheLedgerAndEveryGradient();
    void othersStayLayerByLayer();
};

void TestPytorchEagerStepOps::eventsAreTorchsHighWaterMarks_data() {
    QTest::addColumn<AccountingInput>("input");
    QTest::addColumn<Measured>("measured");
    // The layer-bound shape: d 256, 4 heads, L 4, V 512, s 128, f 1024, biases, tied, batch 2. Its
    // step peaks inside the last layer's backward (the layer-by-layer event said 63,044,640 B: +2.14 %).
    QTest::newRow("d 256 L 4 V 512 s 128 tied, batch 2")
        << gpt2(256, 4, 4, 512, 128, 1024, true, EmbeddingTying::tied, 2)
        << Measured{{"start", 39880704},
                    {"forward layer 1", 45145096},
                    {"forward layer 2", 49884176},
                    {"forward layer 3", 54623256},
                    {"forward layer 4", 59362336},
                    {"forward head", 60412968},
                    {"backward loss", 60937256},
                    {"backward head", 60675112},
                    {"backward layer 4", 61724712},
                    {"backward layer 3", 60144672},
                    {"backward layer 2", 58564632},
                    {"backward layer 1", 56984592},
                    {"backward embeddings", 54222856},
                    {"optimizer step", 55275532},
                    {"zero_grad", 39880704}};
    // A wide MLP: d 64, 2 heads, L 3, V 64, s 32, f 1024, no biases, untied, batch 3; peak in the last
    // layer's backward.
    QTest::newRow("d 64 f 1024 untied, batch 3")
        << gpt2(64, 2, 3, 64, 32, 1024, false, EmbeddingTying::untied, 3)
        << Measured{{"start", 5436672},
                    {"forward layer 1", 6496264},
                    {"forward layer 2", 7506448},
                    {"forward layer 3", 8516632},
                    {"forward head", 8566560},
                    {"backward loss", 8591136},
                    {"backward head", 8582944},
                    {"backward layer 3", 9164064},
                    {"backward layer 2", 8744216},
                    {"backward layer 1", 8324368},
                    {"backward embeddings", 7273480},
                    {"optimizer step", 8035340},
                    {"zero_grad", 5436672}};
    // Batch 1: matmul's reshapes are views, so bmm keeps the QKV output itself and nothing copies q, kᵀ, v.
    QTest::newRow("d 64 f 1024 untied, batch 1")
        << gpt2(64, 2, 3, 64, 32, 1024, false, EmbeddingTying::untied, 1)
        << Measured{{"start", 5436672},
                    {"forward layer 1", 5790728},
                    {"forward layer 2", 6128144},
                    {"forward layer 3", 6465560},
                    {"forward head", 6482208},
                    {"backward loss", 6490400},
                    {"backward head", 6498592},
                    {"backward layer 3", 6875424},
                    {"backward layer 2", 7128344},
                    {"backward layer 1", 7381264},
                    {"backward embeddings", 7257096},
                    {"optimizer step", 8035340},
                    {"zero_grad", 5436672}};
    // check_memory_timeline.py's d 40 untied GPT-2: the step peaks in AdamW's update; its backward's
    // layers are below it now (the layer-by-layer event said 800,314 B for the last layer's).
    QTest::newRow("d 40 L 2 V 53 s 11 untied, batch 3")
        << gpt2(40, 5, 2, 53, 11, 160, false, EmbeddingTying::untied, 3)
        << Measured{{"start", 519360},
                    {"forward layer 1", 622405},
                    {"forward layer 2", 714802},
                    {"forward head", 729066},
                    {"backward loss", 736062},
                    {"backward head", 735830},
                    {"backward layer 2", 764890},
                    {"backward layer 1", 749613},
                    {"backward embeddings", 697768},
                    {"optimizer step", 769292},
                    {"zero_grad", 519360}};
    // Llama-style (reference_models.Decoder: RMSNorm, SwiGLU, RoPE, repeat_kv), fp32, no biases;
    // tests/validation/check_memory_timeline.py's Llama cases. GQA, 6 heads on 2, untied, batch 3: the layer
    // by layer events said 1,141,032 B at backward layer 3 (+3.2 % over the step's peak, in AdamW's update).
    QTest::newRow("Llama d 48 a 6 g 2 untied, batch 3")
        << llama(48, 6, 2, 8, 3, 37, 7, 100, EmbeddingTying::untied, 3)
        << Measured{{"start", 786240},
                    {"forward layer 1", 880776},
                    {"forward layer 2", 966464},
                    {"forward layer 3", 1052152},
                    {"forward head", 1066524},
                    {"backward loss", 1069296},
                    {"backward head", 1075332},
                    {"backward layer 3", 1095552},
                    {"backward layer 2", 1092424},
                    {"backward layer 1", 1089296},
                    {"backward embeddings", 1052360},
                    {"optimizer step", 1105932},
                    {"zero_grad", 786240}};
    // Multi-head (repeat_kv a no-op, so matmul copies kᵀ and v), tied, batch 2: peaks inside the last layer's
    // backward, where the layer-by-layer event said 673,104 B (+6.5 %).
    QTest::newRow("Llama d 40 a 4 g 4 tied, batch 2")
        << llama(40, 4, 4, 10, 2, 53, 11, 88, EmbeddingTying::tied, 2)
        << Measured{{"start", 434880},
                    {"forward layer 1", 520732},
                    {"forward layer 2", 598004},
                    {"forward head", 614468},
                    {"backward loss", 618472},
                    {"backward head", 621144},
                    {"backward layer 2", 632040},
                    {"backward layer 1", 622928},
                    {"backward embeddings", 596808},
                    {"optimizer step", 622092},
                    {"zero_grad", 434880}};
    // Batch 1: matmul's reshapes are views, so the bmms keep q after RoPE (and, without repeats, k and v).
    QTest::newRow("Llama d 48 a 6 g 2 untied, batch 1")
        << llama(48, 6, 2, 8, 3, 37, 7, 100, EmbeddingTying::untied, 1)
        << Measured{{"start", 786240},
                    {"forward layer 1", 818280},
                    {"forward layer 2", 846848},
                    {"forward layer 3", 875416},
                    {"forward head", 880212},
                    {"backward loss", 880912},
                    {"backward head", 887788},
                    {"backward layer 3", 944276},
                    {"backward layer 2", 998268},
                    {"backward layer 1", 1051812},
                    {"backward embeddings", 1049672},
                    {"optimizer step", 1105932},
                    {"zero_grad", 786240}};
    QTest::newRow("Llama d 40 a 4 g 4 tied, batch 1")
        << llama(40, 4, 4, 10, 2, 53, 11, 88, EmbeddingTying::tied, 1)
        << Measured{{"start", 434880},
                    {"forward layer 1", 478580},
                    {"forward layer 2", 517220},
                    {"forward head", 525456},
                    {"backward loss", 527128},
                    {"backward head", 532704},
                    {"backward layer 2", 565172},
                    {"backward layer 1", 593812},
                    {"backward embeddings", 596808},
                    {"optimizer step", 622092},
                    {"zero_grad", 434880}};
    // Layer-bound: a small vocabulary and a wide MLP, peak inside the last layer's backward.
    QTest::newRow("Llama d 64 a 4 g 2 s 32 f 256 untied, batch 2")
        << llama(64, 4, 2, 16, 3, 64, 32, 256, EmbeddingTying::untied, 2)
        << Measured{{"start", 2315520},
                    {"forward layer 1", 2847496},
                    {"forward layer 2", 3339536},
                    {"forward layer 3", 3831576},
                    {"forward head", 3897376},
                    {"backward loss", 3910688},
                    {"backward head", 3910944},
                    {"backward layer 3", 4025376},
                    {"backward layer 2", 3779608},
                    {"backward layer 1", 3533840},
                    {"backward embeddings", 3103752},
                    {"optimizer step", 3283980},
                    {"zero_grad", 2315520}};
    // Multi-query (4 heads on 1), s 64, tied, batch 3: the step peaks in the head's backward.
    QTest::newRow("Llama d 96 a 4 g 1 s 64 tied, batch 3")
        << llama(96, 4, 1, 24, 2, 50, 64, 160, EmbeddingTying::tied, 3)
        << Measured{{"start", 1722240},
                    {"forward layer 1", 3465608},
                    {"forward layer 2", 5040016},
                    {"forward head", 5265048},
                    {"backward loss", 5294232},
                    {"backward head", 5346072},
                    {"backward layer 2", 5283864},
                    {"backward layer 1", 3986704},
                    {"backward embeddings", 2389256},
                    {"optimizer step", 2480652},
                    {"zero_grad", 1722240}};
    // Heads wider than d/a (4 × 16 on d 48, as Gemma's): the q and output projections are not square.
    QTest::newRow("Llama d 48 a 4 g 2 d_h 16 untied, batch 2")
        << llama(48, 4, 2, 16, 2, 29, 9, 72, EmbeddingTying::untied, 2)
        << Measured{{"start", 506304},
                    {"forward layer 1", 584792},
                    {"forward layer 2", 654352},
                    {"forward head", 665520},
                    {"backward loss", 666744},
                    {"backward head", 673152},
                    {"backward layer 2", 690184},
                    {"backward layer 1", 698192},
                    {"backward embeddings", 678536},
                    {"optimizer step", 716556},
                    {"zero_grad", 506304}};
}

void TestPytorchEagerStepOps::eventsAreTorchsHighWaterMarks() {
    QFETCH(AccountingInput, input);
    QFETCH(Measured, measured);
    QVERIFY(eagerStepOpsUnsupported(input, accountValid(input)).empty());
    test::verifyEventsAreTorchs(input, measured);
}

void TestPytorchEagerStepOps::runsCountTheLedgerAndEveryGradient_data() {
    QTest::addColumn<AccountingInput>("input");
    for (const bool bias : {true, false})
        for (const EmbeddingTying tying : {EmbeddingTying::tied, EmbeddingTying::untied})
            for (const double batch : {1.0, 3.0})
                QTest::newRow(QByteArray(bias ? "bias " : "no bias ") +
                              (tying == EmbeddingTying::tied ? "tied " : "untied ") + "batch " +
                              QByteArray::number(batch))
                    << gpt2(48, 3, 3, 37, 7, 120, bias, tying, batch);
    AccountingInput small = gpt2(768, 12, 12, 50257, 1024, 3072, true, EmbeddingTying::tied, 8);
    small.precision = PrecisionRecipe::bf16;
    QTest::newRow("GPT-2 small bf16") << small;
    small.precision = PrecisionRecipe::mixedBf16;
    small.gpus = 8;
    small.zeroStage = 1;
    QTest::newRow("GPT-2 small mixed-bf16 ZeRO-1 on 8") << small;
    for (const double kvHeads : {2.0, 6.0})
        for (const EmbeddingTying tying : {EmbeddingTying::tied, EmbeddingTying::untied})
            for (const double batch : {1.0, 3.0})
                QTest::newRow(QByteArray("Llama g ") + QByteArray::number(kvHeads) +
                              (tying == EmbeddingTying::tied ? " tied" : " untied") + " batch " +
                              QByteArray::number(batch))
                    << llama(48, 6, kvHeads, 8, 3, 37, 7, 100, tying, batch);
    // Llama 3 8B's shapes (GQA 32/8, d_h 128, f 14336, V 128256) in fp32 at s 8192.
    QTest::newRow("Llama 3 8B fp32") << llama(4096, 32, 8, 128, 32, 128256, 8192, 14336,
                                              EmbeddingTying::untied, 1);
}

// What the runs allocate is what the accounting counts: the activations held at the end of forward are
// memory_bytes.activations (the pytorch-eager ledger, tensor for tensor), every parameter gets one
// gradient, and the step ends holding none of its activations or temporaries.
void TestPytorchEagerStepOps::runsCountTheLedgerAndEveryGradient() {
    QFETCH(AccountingInput, input);
    const AccountingResult r = accountValid(input);
    QVERIFY(eagerStepOpsUnsupported(input, r).empty());
    const double layers = input.model.layers;
    const EagerStepOps ops =
        eagerStepOps(input.model, input.batch, r.precision.activations, r.bytesPerParameter.gradients);
    const double forward = ops.embeddingsForward.end().activations +
                           layers * ops.layerForward.end().activations + ops.headForward.end().activations;
    COMPARE_EXACT(forward, r.memory.activations.value);
    COMPARE_EXACT(runsParameters(ops, layers), r.trainableParameters);
    double activations = 0, temporary = 0;
    for (const OpRun* run : {&ops.embeddingsForward, &ops.headForward, &ops.lossBackward, &ops.headBackward,
                             &ops.embeddingsBackward}) {
        activations += run->end().activations;
        temporary += run->end().temporary;
    }
    activations += layers * ops.layerForward.end().activations +
                   (layers - 1) * ops.layerBackward.end().activations +
                   ops.firstLayerBackward.end().activations;
    temporary += layers * ops.layerForward.end().temporary +
                 (layers - 1) * ops.layerBackward.end().temporary + ops.firstLayerBackward.end().temporary;
    QCOMPARE(activations, 0.0);
    QCOMPARE(temporary, 0.0);
    // Built once per step, whatever the layer count: a timeline of 96 layers costs the same runs as one.
    std::size_t steps = 0;
    for (const OpRun* run :
         {&ops.embeddingsForward, &ops.layerForward, &ops.headForward, &ops.lossBackward, &ops.headBackward,
          &ops.layerBackward, &ops.firstLayerBackward, &ops.embeddingsBackward})
        steps += run->steps();
    QVERIFY2(steps < 800, qPrintable(QString::number(steps)));
}

// Outside what was compared with torch op by op, the events stay the activation ledger's, layer by layer.
void TestPytorchEagerStepOps::othersStayLayerByLayer() {
    const AccountingInput base = gpt2(48, 3, 3, 37, 7, 120, true, EmbeddingTying::tied, 2);
    const auto reason = [](const AccountingInput& in) {
        return std::string(eagerStepOpsUnsupported(in, accountValid(in)));
    };
    QVERIFY(reason(base).empty());
    AccountingInput megatron = base;
    megatron.model.activationsOf = ActivationProfile::megatron;
    QVERIFY(!reason(megatron).empty());
    AccountingInput dropout = base;
    dropout.model.dropout = true;
    QVERIFY(!reason(dropout).empty());
    AccountingInput full = base;
    full.recompute = Recompute::full;
    QVERIFY(!reason(full).empty());
    AccountingInput zero2 = base;
    zero2.gpus = 4;
    zero2.zeroStage = 2;
    QVERIFY(!reason(zero2).empty());
    // Llama-style blocks, Mixtral's experts among them, op by op in fp32; their 16-bit casts stay layer by
    // layer.
    AccountingInput llamaStep = llama(48, 6, 2, 8, 3, 37, 7, 100, EmbeddingTying::untied, 3);
    QVERIFY(reason(llamaStep).empty());
    AccountingInput llamaBf16 = llamaStep;
    llamaBf16.precision = PrecisionRecipe::bf16;
    QVERIFY(!reason(llamaBf16).empty());
    AccountingInput mixtral = llamaStep;
    mixtral.model.experts = 4;
    mixtral.model.topK = 2;
    QVERIFY(reason(mixtral).empty());
    AccountingInput mixtralBf16 = mixtral;
    mixtralBf16.precision = PrecisionRecipe::bf16;
    QVERIFY(!reason(mixtralBf16).empty());
    AccountingInput oneHead = base;
    oneHead.model.heads = 1;
    QVERIFY(!reason(oneHead).empty());
}

QTEST_APPLESS_MAIN(TestPytorchEagerStepOps)
#include "tst_pytorch_eager_step_ops.moc"
