// SPDX-License-Identifier: GPL-3.0-or-later
// Mixtral-style sparse MoE blocks under pytorch-eager op by op (pytorch_eager_moe_ops.h): every event is the
// high-water mark of torch 1.13's CPU allocator inside it, to the byte, with the token slots routed as napkin
// assumes (balanced: slot j to expert j mod E). Each row's figures are torch.profiler
// (profile_memory=True)'s largest running sum inside each event of a steady AdamW step (start and zero_grad:
// the bytes held there), less AdamW's 0-d `step` tensors, the model's buffers and the token and target
// tensors, as tests/validation/check_memory_timeline.py measures them (Debian's torch 1.13.0a0, one thread;
// reference_models.Decoder with modeling_mixtral.py's block, its top-k indices overwritten by route()).
// The layer-by-layer events these replace held every expert's saved tensors beside all of the layer's
// gradients: 3–7 % high at the backward layers, the step's peak in three of the four.
#include "engine/accounting/memory_timeline.h"
#include "engine/accounting/pytorch_eager_llama_ops.h"
#include "engine/accounting/pytorch_eager_moe_ops.h"
#include "tests/support/accounting_inputs.h"
#include "tests/support/torch_step_events.h"

#include <QtTest>

#include <algorithm>
#include <utility>
#include <vector>

using namespace napkin;
using eager::ExpertShare;

using Measured = test::TorchStepEvents;
using Routing = std::vector<ExpertShare>;
Q_DECLARE_METATYPE(napkin::AccountingInput)
Q_DECLARE_METATYPE(Measured)
Q_DECLARE_METATYPE(Routing)

namespace {

#define COMPARE_EXACT(actual, expected)                                                                      \
    QVERIFY2((actual) == (expected),                                                                         \
             QByteArray::number(actual, 'g', 17) + " != " + QByteArray::number(expected, 'g', 17))

/// reference_models.Decoder with Mixtral's block in every layer: RMSNorm, RoPE, `kvHeads` key/value heads of
/// `headDim`, `experts` SwiGLU experts `ffn` wide, top `topK`, no biases, dropout off, fp32, AdamW
/// single-tensor.
AccountingInput mixtral(double d, double heads, double kvHeads, double headDim, double layers, double vocab,
                        double seq, double ffn, double experts, double topK, EmbeddingTying tying,
                        double batch) {
    AccountingInput in = gptInput(d, layers, heads, vocab, seq, batch);
    in.model.ffnDim = ffn;
    in.model.expertFfnDim = ffn;
    in.model.experts = experts;
    in.model.topK = topK;
    in.model.bias = false;
    in.model.embeddings = tying;
    in.model.dropout = false;
    in.model.kvHeads = kvHeads;
    in.model.headDim = headDim;
    in.model.mlp = MlpKind::swiglu;
    in.model.norm = NormKind::rmsnorm;
    in.model.position = PositionKind::rope;
    in.model.activationsOf = ActivationProfile::pytorchEager;
    in.precision = PrecisionRecipe::fp32;
    in.optimizer = OptimizerKind::adamw;
    in.optimizerImplementation = OptimizerImplementation::singleTensor;
    return in;
}

EagerStepOps opsOf(const AccountingInput& in, const AccountingResult& r, Routing routing = {}) {
    return llamaStepOps(in.model, in.batch, r.precision.activations, r.bytesPerParameter.gradients,
                        std::move(routing));
}

double eventBytes(const MemoryTimeline& t, const char* name) {
    for (const TimelineEvent& e : t.events)
        if (stepEventName(e.event) == name)
            return e.bytes.total();
    return -1;
}

} // namespace

class TestPytorchEagerMoeOps : public QObject {
    Q_OBJECT
private slots:
    void eventsAreTorchsHighWaterMarks_data();
    void eventsAreTorchsHighWaterMarks();
    void routingMovesTheBackwardLayers_data();
    void routingMovesTheBackwardLayers();
    void balancedRouting_data();
    void balancedRouting();
    void runsCountTheLedgerAndEveryGradient_data();
    void runsCountTheLedgerAndEveryGradient();
    void aRepeatedShareIsItsExpertsWrittenOut();
    void fewerSlotsThanExpertsStayLayerByLayer();
};

void TestPytorchEagerMoeOps::eventsAreTorchsHighWaterMarks_data() {
    QTest::addColumn<AccountingInput>("input");
    QTest::addColumn<Measured>("measured");
    // 42 slots on 4 experts (11, 11, 10, 10), top 2, grouped-query: the step peaks inside layer 1's backward
    // (the layer-by-layer event said 1,107,404 B: +6.7 %).
    QTest::newRow("d 48 E 4 k 2 untied, batch 3")
        << mixtral(48, 6, 2, 8, 2, 37, 7, 40, 4, 2, EmbeddingTying::untied, 3)
        << Measured{{"start", 750528},
                    {"forward layer 1", 865308},
                    {"forward layer 2", 971240},
                    {"forward head", 985612},
                    {"backward loss", 988384},
                    {"backward head", 994420},
                    {"backward layer 2", 1025800},
                    {"backward layer 1", 1037756},
                    {"backward embeddings", 1004744},
                    {"optimizer step", 1023756},
                    {"zero_grad", 750528}};
    // 22 slots on 8 experts (3 for the first six, 2 for the last two), top 1, multi-head, tied (was
    // 1,063,648 B: +3.8 %).
    QTest::newRow("d 40 E 8 k 1 tied, batch 2")
        << mixtral(40, 4, 4, 10, 2, 53, 11, 24, 8, 1, EmbeddingTying::tied, 2)
        << Measured{{"start", 742080},
                    {"forward layer 1", 817988},
                    {"forward layer 2", 885316},
                    {"forward head", 901780},
                    {"backward loss", 905784},
                    {"backward head", 908456},
                    {"backward layer 2", 972616},
                    {"backward layer 1", 1024648},
                    {"backward embeddings", 1006408},
                    {"optimizer step", 1008652},
                    {"zero_grad", 742080}};
    // Layer-bound: wide experts, a small vocabulary; 128 slots on 8 experts, top 2 (was 20,505,096 B: +3.2
    // %).
    QTest::newRow("d 64 E 8 k 2 s 32 f 256 untied, batch 2")
        << mixtral(64, 4, 2, 16, 3, 64, 32, 256, 8, 2, EmbeddingTying::untied, 2)
        << Measured{{"start", 14720256},
                    {"forward layer 1", 15622152},
                    {"forward layer 2", 16484112},
                    {"forward layer 3", 17346072},
                    {"forward head", 17411872},
                    {"backward loss", 17425184},
                    {"backward head", 17425440},
                    {"backward layer 3", 18337568},
                    {"backward layer 2", 19100184},
                    {"backward layer 1", 19862800},
                    {"backward embeddings", 19643400},
                    {"optimizer step", 19823628},
                    {"zero_grad", 14720256}};
    // Top 1 of 4 at batch 1 (matmul's reshapes are views): 9 slots (3, 2, 2, 2); peak in AdamW's update.
    QTest::newRow("d 48 E 4 k 1 d_h 16 untied, batch 1")
        << mixtral(48, 4, 2, 16, 2, 29, 9, 72, 4, 1, EmbeddingTying::untied, 1)
        << Measured{{"start", 1257408},
                    {"forward layer 1", 1303532},
                    {"forward layer 2", 1344184},
                    {"forward head", 1349772},
                    {"backward loss", 1349952},
                    {"backward head", 1356036},
                    {"backward layer 2", 1523128},
                    {"backward layer 1", 1685228},
                    {"backward embeddings", 1678280},
                    {"optimizer step", 1718028},
                    {"zero_grad", 1257408}};
}

void TestPytorchEagerMoeOps::eventsAreTorchsHighWaterMarks() {
    QFETCH(AccountingInput, input);
    QFETCH(Measured, measured);
    QVERIFY(eagerStepOpsUnsupported(input, accountValid(input)).empty());
    test::verifyEventsAreTorchs(input, measured);
}

// The routing is an input of the block's runs. Every routing's forward keeps the same b·s·K slots and every
// layer's backward ends holding the same, so only the backward layers' high-water marks move: torch's, for
// the d 40 step above with its 22 slots routed otherwise (route() given the list), against the balanced
// step's events moved by the difference of the layer runs' high-water marks.
void TestPytorchEagerMoeOps::routingMovesTheBackwardLayers_data() {
    QTest::addColumn<Routing>("routing");
    QTest::addColumn<double>("layer2");
    QTest::addColumn<double>("layer1");
    // The 15-slot expert made first, so run last: its m·f gradients beside every other expert's weight
    // gradients.
    QTest::newRow("15 slots to expert 1, 1 to each other")
        << Routing{{15, 1}, {1, 7}} << 974716.0 << 1026748.0;
    // Run first, before the other experts' weight gradients exist: the balanced step's peaks.
    QTest::newRow("15 slots to expert 8, 1 to each other")
        << Routing{{1, 7}, {15, 1}} << 972616.0 << 1024648.0;
    QTest::newRow("balanced, given") << Routing{{3, 6}, {2, 2}} << 972616.0 << 1024648.0;
}

void TestPytorchEagerMoeOps::routingMovesTheBackwardLayers() {
    QFETCH(Routing, routing);
    QFETCH(double, layer2);
    QFETCH(double, layer1);
    const AccountingInput in = mixtral(40, 4, 4, 10, 2, 53, 11, 24, 8, 1, EmbeddingTying::tied, 2);
    const AccountingResult r = accountValid(in);
    const EagerStepOps balanced = opsOf(in, r), routed = opsOf(in, r, routing);
    QCOMPARE(routed.layerForward.peak(), balanced.layerForward.peak());
    QCOMPARE(routed.layerBackward.end(), balanced.layerBackward.end());
    QCOMPARE(routed.firstLayerBackward.end(), balanced.firstLayerBackward.end());
    const MemoryTimeline t = memoryTimeline(in, r);
    COMPARE_EXACT(eventBytes(t, "backward layer 2") + routed.layerBackward.peakBytes() -
                      balanced.layerBackward.peakBytes(),
                  layer2);
    COMPARE_EXACT(eventBytes(t, "backward layer 1") + routed.firstLayerBackward.peakBytes() -
                      balanced.firstLayerBackward.peakBytes(),
                  layer1);
}

void TestPytorchEagerMoeOps::balancedRouting_data() {
    QTest::addColumn<double>("slotCount");
    QTest::addColumn<double>("experts");
    QTest::addColumn<Routing>("routing");
    QTest::newRow("42 on 4") << 42.0 << 4.0 << Routing{{11, 2}, {10, 2}};
    QTest::newRow("22 on 8") << 22.0 << 8.0 << Routing{{3, 6}, {2, 2}};
    QTest::newRow("128 on 8") << 128.0 << 8.0 << Routing{{16, 8}};
    QTest::newRow("9 on 4") << 9.0 << 4.0 << Routing{{3, 1}, {2, 3}};
    QTest::newRow("3 on 8: five experts get none") << 3.0 << 8.0 << Routing{{1, 3}, {0, 5}};
    QTest::newRow("1 on 1") << 1.0 << 1.0 << Routing{{1, 1}};
}

void TestPytorchEagerMoeOps::balancedRouting() {
    QFETCH(double, slotCount);
    QFETCH(double, experts);
    QFETCH(Routing, routing);
    QVERIFY(eager::balancedRouting(slotCount, experts) == routing);
}

void TestPytorchEagerMoeOps::runsCountTheLedgerAndEveryGradient_data() {
    QTest::addColumn<AccountingInput>("input");
    for (const double experts : {4.0, 8.0})
        for (const double topK : {1.0, 2.0})
            for (const double batch : {1.0, 3.0})
                QTest::newRow(QByteArray("E ") + QByteArray::number(experts) + " k " +
                              QByteArray::number(topK) + " batch " + QByteArray::number(batch))
                    << mixtral(48, 6, 2, 8, 3, 37, 9, 40, experts, topK, EmbeddingTying::untied, batch);
    // Many experts (1,056 slots on 1,024: 2 for the first 32, 1 for the rest): the work of two shares.
    QTest::newRow("E 1024 k 8") << mixtral(64, 4, 2, 16, 4, 64, 33, 32, 1024, 8, EmbeddingTying::untied, 4);
    // Mixtral 8x7B's shapes in fp32 at s 4096.
    QTest::newRow("Mixtral 8x7B fp32")
        << mixtral(4096, 32, 8, 128, 32, 32000, 4096, 14336, 8, 2, EmbeddingTying::untied, 1);
}

// What the runs allocate is what the accounting counts: the activations held at the end of forward are
// memory_bytes.activations (the ledger's routed rows hold the b·s·K slots), every parameter gets one
// gradient (every expert's, the router's), and the step ends holding none of its activations or temporaries.
void TestPytorchEagerMoeOps::runsCountTheLedgerAndEveryGradient() {
    QFETCH(AccountingInput, input);
    const AccountingResult r = accountValid(input);
    QVERIFY(eagerStepOpsUnsupported(input, r).empty());
    const double layers = input.model.layers;
    const EagerStepOps ops = opsOf(input, r);
    COMPARE_EXACT(ops.embeddingsForward.end().activations + layers * ops.layerForward.end().activations +
                      ops.headForward.end().activations,
                  r.memory.activations.value);
    COMPARE_EXACT(ops.headBackward.end().gradientParameters +
                      (layers - 1) * ops.layerBackward.end().gradientParameters +
                      ops.firstLayerBackward.end().gradientParameters +
                      ops.embeddingsBackward.end().gradientParameters,
                  r.trainableParameters);
    double activations = 0, temporary = 0;
    std::size_t steps = 0;
    for (const OpRun* run : {&ops.embeddingsForward, &ops.headForward, &ops.lossBackward, &ops.headBackward,
                             &ops.embeddingsBackward, &ops.firstLayerBackward}) {
        activations += run->end().activations;
        temporary += run->end().temporary;
    }
    activations +=
        layers * ops.layerForward.end().activations + (layers - 1) * ops.layerBackward.end().activations;
    temporary += layers * ops.layerForward.end().temporary + (layers - 1) * ops.layerBackward.end().temporary;
    for (const OpRun* run :
         {&ops.embeddingsForward, &ops.layerForward, &ops.headForward, &ops.lossBackward, &ops.headBackward,
          &ops.layerBackward, &ops.firstLayerBackward, &ops.embeddingsBackward})
        steps += run->steps();
    QCOMPARE(activations, 0.0);
    QCOMPARE(temporary, 0.0);
    QVERIFY2(steps < 1200, qPrintable(QString::number(steps)));
}

// A share of k experts is written once and repeated (OpRun::repeat): the same high-water marks and ends
// as the k experts written out one by one, in a few shares' work.
void TestPytorchEagerMoeOps::aRepeatedShareIsItsExpertsWrittenOut() {
    const AccountingInput in = mixtral(48, 6, 2, 8, 2, 37, 7, 40, 6, 2, EmbeddingTying::untied, 3);
    const AccountingResult r = accountValid(in);
    for (const Routing& shares : {Routing{{8, 3}, {6, 3}}, Routing{{6, 3}, {8, 3}}}) {
        Routing apart;
        for (const ExpertShare& s : shares)
            for (int e = 0; e < s.experts; ++e)
                apart.push_back({s.tokens, 1});
        const EagerStepOps repeated = opsOf(in, r, shares), written = opsOf(in, r, apart);
        for (const auto run :
             {&EagerStepOps::layerForward, &EagerStepOps::layerBackward, &EagerStepOps::firstLayerBackward}) {
            COMPARE_EXACT((repeated.*run).peakBytes(), (written.*run).peakBytes());
            QCOMPARE((repeated.*run).peak(), (written.*run).peak());
            QCOMPARE((repeated.*run).end(), (written.*run).end());
        }
        QVERIFY(repeated.layerBackward.steps() < written.layerBackward.steps());
    }
}

// With fewer token slots than experts (2 · 7 · 1 = 14 on 64) some expert gets none: torch makes it no
// gradient and AdamW no state, which napkin's totals count, so the step is not claimed op by op.
void TestPytorchEagerMoeOps::fewerSlotsThanExpertsStayLayerByLayer() {
    AccountingInput in = mixtral(48, 6, 2, 8, 2, 37, 7, 40, 64, 1, EmbeddingTying::tied, 2);
    QVERIFY(!eagerStepOpsUnsupported(in, accountValid(in)).empty());
    in.model.experts = 14;
    QVERIFY(eagerStepOpsUnsupported(in, accountValid(in)).empty());
}

QTEST_APPLESS_MAIN(TestPytorchEagerMoeOps)
#include "tst_pytorch_eager_moe_ops.moc"
