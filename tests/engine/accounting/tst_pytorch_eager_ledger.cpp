// SPDX-License-Identifier: GPL-3.0-or-later
// The pytorch-eager activation profile: the bytes PyTorch eager autograd saves for a nanoGPT-style GPT-2,
// a Llama-style decoder and a Mixtral-style mixture of experts.
// Every row's figure was measured with torch 1.13 (Debian's python3-torch) on the CPU by
// tests/validation/check_against_pytorch.py: the storages autograd saved during one forward (walking
// grad_fn._saved_* and checkpoint's saved_tensors), deduplicated, parameters, buffers and inputs excluded,
// fp32 and dropout off, where the CPU and CUDA kernels keep the same dtypes. The same script checks every
// other case (bf16, dropout on, odd shapes) in CTest (validation_against_pytorch).
#include "engine/accounting/accounting.h"
#include "engine/accounting/activation_memory.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/accounting/pytorch_eager_lora.h"

#include <QTest>

Q_DECLARE_METATYPE(napkin::ModelSpec)
Q_DECLARE_METATYPE(napkin::FineTuning)

using namespace napkin;

namespace {
ModelSpec gpt2(double d, double heads, double layers, double vocab, double seq, double ffn, bool bias,
               bool tied) {
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.dModel = d;
    m.heads = heads;
    m.layers = layers;
    m.vocab = vocab;
    m.seq = seq;
    m.ffnDim = ffn;
    m.bias = bias;
    m.embeddings = tied ? EmbeddingTying::tied : EmbeddingTying::untied;
    m.dropout = false;
    m.activationsOf = ActivationProfile::pytorchEager;
    return m;
}

// A Llama-style decoder as tests/validation/reference_models.py's Decoder builds it: RMSNorm, SwiGLU,
// RoPE, g key/value heads of width d_h, no biases, no dropout.
ModelSpec llama(double d, double heads, double kvHeads, double headDim, double layers, double vocab,
                double seq, double ffn, bool tied) {
    ModelSpec m = gpt2(d, heads, layers, vocab, seq, ffn, false, tied);
    m.norm = NormKind::rmsnorm;
    m.mlp = MlpKind::swiglu;
    m.position = PositionKind::rope;
    m.kvHeads = kvHeads;
    m.headDim = headDim;
    return m;
}

// Mixtral-style: the Llama-style decoder with E SwiGLU experts of width f behind a top-k router.
ModelSpec mixtral(double d, double heads, double kvHeads, double headDim, double layers, double vocab,
                  double seq, double ffn, bool tied, double experts, double topK) {
    ModelSpec m = llama(d, heads, kvHeads, headDim, layers, vocab, seq, ffn, tied);
    m.experts = experts;
    m.topK = topK;
    return m;
}

FineTuning lora(std::vector<LoraTarget> targets, double rank) {
    FineTuning ft;
    ft.method = FineTuneMethod::lora;
    ft.targets = std::move(targets);
    ft.rank = rank;
    ft.alpha = 2 * rank;
    return ft;
}

AccountingInput inputFor(const ModelSpec& m) {
    AccountingInput in;
    in.model = m;
    in.batch = 2;
    return in;
}
} // namespace

class TestPytorchEagerLedger : public QObject {
    Q_OBJECT
private slots:
    void savedBytesEqualTorch_data() {
        QTest::addColumn<ModelSpec>("model");
        QTest::addColumn<double>("batch");
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("torchBytes");
        const int fp32 = int(StorageType::fp32), bf16 = int(StorageType::bf16);
        const int none = int(Recompute::none), full = int(Recompute::full);
        // d, a, L, V, s, f, bias, tied; torch 1.13 CPU, fp32, dropout off (check_against_pytorch.py).
        QTest::newRow("d64 a4 L2 V100 s16 b2")
            << gpt2(64, 4, 2, 100, 16, 256, true, true) << 2.0 << fp32 << none << 309652.0;
        QTest::newRow("d64 a4 L2 V100 s16 b2, checkpoint")
            << gpt2(64, 4, 2, 100, 16, 256, true, true) << 2.0 << fp32 << full << 45956.0;
        QTest::newRow("d48 a3 L3 V37 s7 b3, no bias, untied")
            << gpt2(48, 3, 3, 37, 7, 120, false, false) << 3.0 << fp32 << none << 175119.0;
        // Batch 1: bmm saves views of the QKV output instead of copies, the same bytes.
        QTest::newRow("d40 a5 L1 V53 s11 b1, untied")
            << gpt2(40, 5, 1, 53, 11, 160, true, false) << 1.0 << fp32 << none << 36917.0;
        // Llama-style: d, a, g, d_h, L, V, s, f, tied; torch 1.13 CPU, the "Llama" rows of
        // `/usr/bin/python3 tests/validation/check_against_pytorch.py --cli build/cli/napkin-cli --markdown`
        // (the CPU and CUDA kernels keep the same dtypes here: RMSNorm's fp32 and the fp32 softmax).
        QTest::newRow("Llama d48 a6 g2 d_h8 L2 V37 s7 f100 b1, GQA")
            << llama(48, 6, 2, 8, 2, 37, 7, 100, false) << 1.0 << fp32 << none << 64028.0;
        QTest::newRow("Llama d48 a6 g2 d_h8 L2 V37 s7 f100 b3, GQA, bf16")
            << llama(48, 6, 2, 8, 2, 37, 7, 100, false) << 3.0 << bf16 << none << 124564.0;
        QTest::newRow("Llama d64 a4 g4 d_h16 L3 V101 s13 f172 b2, tied")
            << llama(64, 4, 4, 16, 3, 101, 13, 172, true) << 2.0 << fp32 << none << 510044.0;
        QTest::newRow("Llama d64 a4 g4 d_h16 L3 V101 s13 f172 b3, tied, checkpoint")
            << llama(64, 4, 4, 16, 3, 101, 13, 172, true) << 3.0 << fp32 << full << 87468.0;
        QTest::newRow("Llama d40 a4 g1 d_h12 L1 V53 s11 f88 b2, multi-query, bf16")
            << llama(40, 4, 1, 12, 1, 53, 11, 88, false) << 2.0 << bf16 << none << 66892.0;
        // Mixtral-style: d, a, g, d_h, L, V, s, f, tied, E, K; torch 1.13 CPU, the "MoE" rows of the same
        // table (docs/validation.md). How tokens split over the experts follows the data; the bytes do not.
        QTest::newRow("MoE d48 a6 g2 d_h8 L2 V37 s7 E4 k2 f40 b1")
            << mixtral(48, 6, 2, 8, 2, 37, 7, 40, false, 4, 2) << 1.0 << fp32 << none << 77524.0;
        QTest::newRow("MoE d48 a6 g2 d_h8 L2 V37 s7 E4 k2 f40 b3, bf16")
            << mixtral(48, 6, 2, 8, 2, 37, 7, 40, false, 4, 2) << 3.0 << bf16 << none << 147412.0;
        QTest::newRow("MoE d40 a4 g4 d_h10 L1 V53 s11 E3 k1 f24 b2, tied")
            << mixtral(40, 4, 4, 10, 1, 53, 11, 24, true, 3, 1) << 2.0 << fp32 << none << 86604.0;
        QTest::newRow("MoE d40 a4 g4 d_h10 L1 V53 s11 E3 k1 f24 b3, tied, checkpoint")
            << mixtral(40, 4, 4, 10, 1, 53, 11, 24, true, 3, 1) << 3.0 << fp32 << full << 34412.0;
        // Here one layer's expert receives no token (15 of the 2 × 8 experts ran); the loop keeps nothing
        // for it.
        QTest::newRow("MoE d36 a3 g1 d_h14 L2 V29 s3 E8 k2 f20 b3, multi-query")
            << mixtral(36, 3, 1, 14, 2, 29, 3, 20, false, 8, 2) << 3.0 << fp32 << none << 69980.0;
    }
    void savedBytesEqualTorch() {
        QFETCH(ModelSpec, model);
        QFETCH(double, batch);
        QFETCH(int, precision);
        QFETCH(int, recompute);
        QFETCH(double, torchBytes);
        const ActivationMemory a = activationMemory(model, batch, static_cast<StorageType>(precision),
                                                    static_cast<Recompute>(recompute));
        QCOMPARE(a.bytes, torchBytes);
        double sum = 0;
        for (const ActivationLedgerRow& row : a.ledger)
            sum += row.bytes * (row.perLayer ? a.layers : 1.0);
        QCOMPARE(sum, torchBytes); // the rows add up to the total
        QVERIFY(a.describes.starts_with("pytorch-eager"));
        AccountingInput in = inputFor(model);
        in.batch = batch;
        QVERIFY(validate(in).ok()); // and the profile accepts the model it describes
    }

    // LoRA on a frozen base: autograd keeps no frozen matmul's input and, in layer 1, nothing before the
    // first adapter. torch 1.13 CPU, fp32, dropout off: the storages autograd saved, as
    // tests/cli/lora_torch_check.py's saved_by_torch() collects them (PEFT-style adapters on
    // reference_models.py's models; recompute full with the embeddings' output requiring grad).
    void loraSavedBytesEqualTorch_data() {
        QTest::addColumn<ModelSpec>("model");
        QTest::addColumn<FineTuning>("fineTuning");
        QTest::addColumn<double>("batch");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("torchBytes");
        using T = LoraTarget;
        const int none = int(Recompute::none), full = int(Recompute::full);
        QTest::newRow("Llama d64 a4 g4 d_h16 L3 V101 s13 f172 b2, tied, v r3")
            << llama(64, 4, 4, 16, 3, 101, 13, 172, true) << lora({T::v}, 3) << 2.0 << none << 330764.0;
        QTest::newRow("Llama d48 a6 g2 d_h8 L2 V37 s7 f100 b1, all-linear r3")
            << llama(48, 6, 2, 8, 2, 37, 7, 100, false)
            << lora({T::q, T::k, T::v, T::o, T::gate, T::up, T::down}, 3) << 1.0 << none << 54536.0;
        QTest::newRow("GPT-2 d48 a3 L3 V37 s7 b3, untied, q,v r5")
            << gpt2(48, 3, 3, 37, 7, 120, false, false) << lora({T::q, T::v}, 5) << 3.0 << none << 110935.0;
        QTest::newRow("GPT-2 d48 a3 L3 V37 s7 b3, untied, q,v r5, checkpoint")
            << gpt2(48, 3, 3, 37, 7, 120, false, false) << lora({T::q, T::v}, 5) << 3.0 << full << 19408.0;
    }
    void loraSavedBytesEqualTorch() {
        QFETCH(ModelSpec, model);
        QFETCH(FineTuning, fineTuning);
        QFETCH(double, batch);
        QFETCH(int, recompute);
        QFETCH(double, torchBytes);
        const auto r = static_cast<Recompute>(recompute);
        const ActivationMemory a =
            pytorchEagerLoraActivations(model, fineTuning, batch, StorageType::fp32, r);
        QCOMPARE(a.bytes, torchBytes);
        double sum = 0;
        for (const ActivationLedgerRow& row : a.ledger)
            sum += row.bytes * (row.perLayer ? a.layers : 1.0);
        QCOMPARE(sum, torchBytes); // layer 1's rows × L + the later layers' extra and the head's, once
        // Less than full training keeps: the frozen matrices' inputs and layer 1's early tensors go.
        QVERIFY(a.bytes < activationMemory(model, batch, StorageType::fp32, r).bytes);
        AccountingInput in = inputFor(model);
        in.batch = batch;
        in.recompute = r;
        in.fineTuning = fineTuning;
        QVERIFY(validate(in).ok());
        // The step's timeline holds the same bytes at the end of forward, never more, never below 0: layer
        // 1 adds its own (smaller) rows, the others theirs.
        const AccountingResult result = account(in, *GpuCatalog::builtIn().find(in.gpu));
        QCOMPARE(result.memory.activations.value, torchBytes);
        double most = 0;
        for (const TimelineEvent& e : memoryTimeline(in, result, TrainingStep::steady).events) {
            QVERIFY2(e.bytes.activations >= 0, stepEventName(e.event).c_str());
            most = std::max(most, e.bytes.activations);
            if (stepEventName(e.event) == "forward head")
                QCOMPARE(e.bytes.activations, torchBytes);
        }
        if (r == Recompute::none)
            QCOMPARE(most, torchBytes);
    }

    void megatronIsUnchanged() {
        // Korthikanti et al.'s GPT-2 ledger: the default profile keeps its closed form (34·s·b·h + 5·a·s²·b
        // per layer in 16 bits, + 4·s·b·V) whatever the new profile does.
        ModelSpec m = gpt2(64, 4, 2, 100, 16, 256, true, true);
        m.activationsOf = ActivationProfile::megatron;
        m.dropout = true;
        const double s = 16, b = 2, h = 64, a = 4, V = 100, L = 2;
        QCOMPARE(activationMemory(m, b, StorageType::bf16, Recompute::none).bytes,
                 L * (34 * s * b * h + 5 * a * s * s * b) + 4 * s * b * V);
    }

    void notesDescribeTheChosenProfile() {
        // The notes beside the ledger must not contradict it: under pytorch-eager the MoE rows include the
        // routing indices, and the ledger is tensor by tensor in fp32 too (no Korthikanti closed form).
        AccountingInput in = inputFor(mixtral(48, 6, 2, 8, 2, 37, 7, 40, false, 4, 2));
        in.precision = PrecisionRecipe::fp32;
        const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
        const auto joined = [](const AccountingResult& r) {
            std::string all;
            for (const std::string& note : r.notes)
                all += note + "\n";
            return QString::fromStdString(all);
        };
        const QString eager = joined(account(in, gpu));
        QVERIFY2(!eager.contains(QStringLiteral("left out of the activations")), qPrintable(eager));
        QVERIFY2(!eager.contains(QStringLiteral("Korthikanti")), qPrintable(eager));
        QVERIFY2(eager.contains(QStringLiteral("token slots")), qPrintable(eager));
        in.model.activationsOf = ActivationProfile::megatron;
        const QString megatron = joined(account(in, gpu));
        QVERIFY2(megatron.contains(QStringLiteral("left out of the activations")), qPrintable(megatron));
        QVERIFY2(megatron.contains(QStringLiteral("Korthikanti")), qPrintable(megatron));
    }

    void fitAdviceStaysInTheProfile() {
        // Mixtral-sized fp32 training on one H100 does not fit at batch 1. The advice named tp 8 × pp 2,
        // which pytorch-eager refuses (exit 2 naming activations-of) on the same page.
        AccountingInput in = inputFor(mixtral(4096, 32, 8, 128, 32, 32000, 4096, 14336, false, 8, 2));
        in.batch = 1;
        in.precision = PrecisionRecipe::fp32;
        QVERIFY(validate(in).ok());
        const AccountingResult eager = account(in, *GpuCatalog::builtIn().find(in.gpu));
        const QString advice = QString::fromStdString(eager.fitAdvice);
        QVERIFY2(advice.startsWith(QStringLiteral("even batch 1 does not fit")), qPrintable(advice));
        QVERIFY2(!advice.contains(QStringLiteral("tp ")) && !advice.contains(QStringLiteral("selective")),
                 qPrintable(advice));
        in.model.activationsOf = ActivationProfile::megatron;
        const AccountingResult megatron = account(in, *GpuCatalog::builtIn().find(in.gpu));
        QVERIFY2(QString::fromStdString(megatron.fitAdvice).contains(QStringLiteral("tp ")),
                 megatron.fitAdvice.c_str());
    }

    void refusesWhatItDoesNotDescribe_data() {
        QTest::addColumn<QString>("what");
        QTest::newRow("rmsnorm in a GPT-2 block") << "rmsnorm";
        QTest::newRow("selective recompute") << "selective";
        QTest::newRow("tensor parallel") << "tp";
        QTest::newRow("flash attention") << "flash";
        QTest::newRow("Llama-style with dropout") << "llama dropout";
        QTest::newRow("Llama-style with q, k, v biases") << "llama qkv bias";
        QTest::newRow("GPT-2 mixture of experts") << "gpt2 moe";
        QTest::newRow("Mixtral-style with a shared expert") << "llama moe shared";
        QTest::newRow("Mixtral-style with dense-first layers") << "llama moe dense-first";
        QTest::newRow("Mixtral-style with a router bias") << "llama moe router bias";
        QTest::newRow("Llama-style sliding window") << "llama window";
        QTest::newRow("Llama-style QK-norm") << "llama qk-norm";
        QTest::newRow("QLoRA (no NF4 in torch to measure)") << "qlora";
        QTest::newRow("LoRA on a Mixtral-style block") << "llama moe lora";
    }
    void refusesWhatItDoesNotDescribe() {
        QFETCH(QString, what);
        const bool isLlama = what.startsWith(QStringLiteral("llama"));
        const ModelSpec base =
            isLlama ? llama(48, 6, 2, 8, 2, 37, 7, 100, false) : gpt2(64, 4, 2, 100, 16, 256, true, true);
        AccountingInput in = inputFor(base);
        QVERIFY(validate(in).ok());
        if (what == "rmsnorm")
            in.model.norm = NormKind::rmsnorm;
        if (what == "selective")
            in.recompute = Recompute::selective;
        if (what == "tp") {
            in.gpus = 2;
            in.parallel.tp = 2;
        }
        if (what == "flash")
            in.model.attentionImpl = AttentionImpl::flash;
        if (what == "llama dropout")
            in.model.dropout = true;
        if (what == "llama qkv bias")
            in.model.qkvBias = true;
        if (what.contains(QStringLiteral("moe"))) {
            in.model.experts = 8;
            in.model.topK = 2;
            // A plain Mixtral-style block is described; each refinement below is not (yet).
            QVERIFY(what == "gpt2 moe" || validate(in).ok());
        }
        if (what == "llama moe shared")
            in.model.sharedFfnDim = 64;
        if (what == "llama moe dense-first")
            in.model.denseLayers = 1;
        if (what == "llama moe router bias")
            in.model.routerBias = true;
        if (what == "llama window")
            in.model.slidingWindow = 4;
        if (what == "llama qk-norm")
            in.model.qkNorm = QkNorm::head;
        if (what == "qlora")
            in.fineTuning.method = FineTuneMethod::qlora;
        if (what == "llama moe lora")
            in.fineTuning = lora({LoraTarget::q, LoraTarget::v}, 4);
        const InputError e = validate(in);
        QCOMPARE(QString::fromStdString(e.field), QStringLiteral("activations-of"));
        QVERIFY(!e.message.empty());
    }
};

QTEST_GUILESS_MAIN(TestPytorchEagerLedger)
#include "tst_pytorch_eager_ledger.moc"
