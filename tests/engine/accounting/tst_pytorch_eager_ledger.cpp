// The pytorch-eager activation profile: the bytes PyTorch eager autograd saves for a nanoGPT-style GPT-2.
// Every row's figure was measured with torch 1.13 (Debian's python3-torch) on the CPU by
// tests/validation/check_against_pytorch.py: the storages autograd saved during one forward (walking
// grad_fn._saved_* and checkpoint's saved_tensors), deduplicated, parameters, buffers and inputs excluded,
// fp32 and dropout off, where the CPU and CUDA kernels keep the same dtypes. The same script checks every
// other case (bf16, dropout on, odd shapes) in CTest (validation_against_pytorch).
#include "engine/accounting/accounting.h"
#include "engine/accounting/activation_memory.h"

#include <QTest>

Q_DECLARE_METATYPE(napkin::ModelSpec)

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
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("torchBytes");
        // d, a, L, V, s, f, bias, tied; torch 1.13 CPU, fp32, dropout off (check_against_pytorch.py).
        QTest::newRow("d64 a4 L2 V100 s16 b2") << gpt2(64, 4, 2, 100, 16, 256, true, true) << 2.0
                                               << int(Recompute::none) << 309652.0;
        QTest::newRow("d64 a4 L2 V100 s16 b2, checkpoint") << gpt2(64, 4, 2, 100, 16, 256, true, true) << 2.0
                                                           << int(Recompute::full) << 45956.0;
        QTest::newRow("d48 a3 L3 V37 s7 b3, no bias, untied") << gpt2(48, 3, 3, 37, 7, 120, false, false) << 3.0
                                                              << int(Recompute::none) << 175119.0;
        // Batch 1: bmm saves views of the QKV output instead of copies, the same bytes.
        QTest::newRow("d40 a5 L1 V53 s11 b1, untied") << gpt2(40, 5, 1, 53, 11, 160, true, false) << 1.0
                                                      << int(Recompute::none) << 36917.0;
    }
    void savedBytesEqualTorch() {
        QFETCH(ModelSpec, model);
        QFETCH(double, batch);
        QFETCH(int, recompute);
        QFETCH(double, torchBytes);
        const ActivationMemory a =
            activationMemory(model, batch, StorageType::fp32, static_cast<Recompute>(recompute));
        QCOMPARE(a.bytes, torchBytes);
        double sum = 0;
        for (const ActivationLedgerRow& row : a.ledger)
            sum += row.bytes * (row.perLayer ? a.layers : 1.0);
        QCOMPARE(sum, torchBytes); // the rows add up to the total
        QVERIFY(a.describes.starts_with("pytorch-eager"));
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

    void refusesWhatItDoesNotDescribe_data() {
        QTest::addColumn<QString>("what");
        QTest::newRow("rmsnorm") << "rmsnorm";
        QTest::newRow("selective recompute") << "selective";
        QTest::newRow("tensor parallel") << "tp";
        QTest::newRow("flash attention") << "flash";
    }
    void refusesWhatItDoesNotDescribe() {
        QFETCH(QString, what);
        AccountingInput in = inputFor(gpt2(64, 4, 2, 100, 16, 256, true, true));
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
        QVERIFY(validate(inputFor(gpt2(64, 4, 2, 100, 16, 256, true, true))).ok());
        const InputError e = validate(in);
        QCOMPARE(QString::fromStdString(e.field), QStringLiteral("activations-of"));
        QVERIFY(!e.message.empty());
    }
};

QTEST_GUILESS_MAIN(TestPytorchEagerLedger)
#include "tst_pytorch_eager_ledger.moc"
