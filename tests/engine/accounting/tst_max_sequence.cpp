// SPDX-License-Identifier: GPL-3.0-or-later
// The largest sequence length a training step fits (issue 30: "how long a context can I fine-tune on?"):
// the step peak at max_sequence fits the GPU and one more (valid) token does not, checked against the
// engine's own peak, by brute force over every S where the answer is small.
#include "engine/accounting/accounting.h"
#include "engine/accounting/max_sequence.h"
#include "engine/accounting/setup_presets.h"
#include "engine/numerics/quantity_format.h"

#include <QtTest>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::AccountingInput)

namespace {

// napkin-cli account --preset llama3-8b-qlora-24gb --json: max_sequence (see qloraOn24GbPreset), in the
// usable basis (the RTX 4090's 24e9 B, the catalog having no driver figure for it, less the cuBLAS and
// cuBLASLt workspaces and the allocator's rounding), and --memory-basis datasheet (24e9 B, no overheads).
constexpr double kQloraPresetMaxSequence = 13733;
constexpr double kQloraPresetMaxSequenceDatasheet = 13748;

const GpuSpec& gpuOf(const AccountingInput& in) {
    return *GpuCatalog::builtIn().find(in.gpu);
}

// What `fits` compares with the usable memory at S: the step's peak plus the counted overheads.
double peakAt(AccountingInput in, double seq) {
    in.model.seq = seq;
    return accountStep(in, gpuOf(in)).predictedBytes.value;
}

// GPT-2 small with rotary positions (no position table to cap the search), eager attention.
AccountingInput gpt2Rope(double seq, double batch, const std::string& gpu) {
    AccountingInput in;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = 768;
    in.model.layers = 12;
    in.model.heads = 12;
    in.model.vocab = 50257;
    in.model.seq = seq;
    in.model.position = PositionKind::rope;
    in.batch = batch;
    in.gpu = gpu;
    return in;
}

AccountingInput preset(const char* id) {
    return findSetupPreset(id)->input;
}

} // namespace

class TestMaxSequence : public QObject {
    Q_OBJECT
private slots:
    void largestThatFits_data();
    void largestThatFits();
    void bruteForceOverEverySequence();
    void qloraOn24GbPreset();
    void learnedPositionsStopAtTheTable();
    void noSequenceOrNoActivations_data();
    void noSequenceOrNoActivations();
};

// Each row: the answer fits, the next valid length (a multiple of cp) does not, and `expected` where it
// is known (-1: only the invariant).
void TestMaxSequence::largestThatFits_data() {
    QTest::addColumn<AccountingInput>("input");
    QTest::addColumn<double>("expected");

    QTest::newRow("gpt2 rope, seq fits, search upward") << gpt2Rope(128, 8, "H100-SXM") << -1.0;
    QTest::newRow("gpt2 rope, seq 8192 too long, search downward") << gpt2Rope(8192, 64, "RTX-4090") << -1.0;
    AccountingInput flash = gpt2Rope(1024, 4, "H100-SXM");
    flash.model.attentionImpl = AttentionImpl::flash;
    flash.precision = PrecisionRecipe::mixedBf16;
    QTest::newRow("gpt2 rope, flash, mixed bf16") << flash << -1.0;
    AccountingInput cp = flash;
    cp.parallel.cp = 4;
    cp.gpus = 4;
    QTest::newRow("cp 4: multiples of 4 only") << cp << -1.0;
    AccountingInput tp = gpt2Rope(1024, 16, "A100-SXM");
    tp.parallel.tp = 4;
    tp.parallel.sp = true;
    tp.gpus = 4;
    tp.recompute = Recompute::selective;
    QTest::newRow("tp 4 + sp, selective (peak is the sum)") << tp << -1.0;
    QTest::newRow("llama3-8b lora on an H100") << preset("llama3-8b-lora-h100") << -1.0;
    AccountingInput offload = preset("llama3-8b-qlora-24gb");
    offload.fineTuning.offload = Offload::optimizer;
    QTest::newRow("llama3-8b qlora, optimizer offloaded") << offload << -1.0;
    // Full fine-tuning of 8B parameters in fp32 with AdamW: 16 B each, 128 GB of model states before
    // one activation, on a 24 GB GPU.
    AccountingInput full = preset("llama3-8b-qlora-24gb");
    full.fineTuning = FineTuning{};
    full.precision = PrecisionRecipe::fp32;
    QTest::newRow("llama3-8b full fp32 on 24 GB: nothing fits") << full << 0.0;
}

void TestMaxSequence::largestThatFits() {
    QFETCH(AccountingInput, input);
    QFETCH(double, expected);
    QVERIFY(validate(input).ok());
    const AccountingResult r = account(input, gpuOf(input));
    QVERIFY(r.maxSequence);
    const double best = r.maxSequence->value;
    if (expected >= 0)
        QCOMPARE(best, expected);
    const double capacity = r.usableBytes.value;
    const double step = input.parallel.cp;
    QCOMPARE(std::fmod(best, step), 0.0);
    if (best >= 1) {
        QVERIFY(peakAt(input, best) <= capacity);
        AccountingInput at = input;
        at.model.seq = best;
        QVERIFY(validate(at).ok());
    } else {
        QVERIFY(peakAt(input, step) > capacity);
    }
    if (best + step <= kMaxSequenceSearched)
        QVERIFY(peakAt(input, best + step) > capacity);
    // The formula names both peaks, as max_batch's does.
    QVERIFY2(r.maxSequence->formula.find(formatExact(best)) != std::string::npos,
             r.maxSequence->formula.c_str());
}

// Where the answer is a few hundred tokens every S can be tried: all up to it fit, the next does not.
void TestMaxSequence::bruteForceOverEverySequence() {
    const AccountingInput in = gpt2Rope(4096, 64, "RTX-4090");
    const AccountingResult r = account(in, gpuOf(in));
    QVERIFY(r.maxSequence);
    const double best = r.maxSequence->value;
    QCOMPARE(best,
             260.0); // 64 sequences in fp32, eager attention keeping a·s² scores: a few hundred on 24 GB
    const double capacity = r.usableBytes.value;
    double previous = 0;
    for (int s = 1; s <= 261; ++s) {
        const double peak = peakAt(in, s);
        QVERIFY2(peak >= previous, QByteArray::number(s)); // monotone, so the bisection is sound
        QCOMPARE(peak <= capacity, s <= best);
        previous = peak;
    }
}

// The student's question: Llama 3 8B, QLoRA r=16, full recompute, batch 1, on a 24 GB RTX 4090.
void TestMaxSequence::qloraOn24GbPreset() {
    const AccountingInput in = preset("llama3-8b-qlora-24gb");
    const AccountingResult r = account(in, gpuOf(in));
    QVERIFY(r.maxSequence);
    const double best = r.maxSequence->value;
    QVERIFY(best > in.model.seq); // the preset's 2048 tokens fit with room to spare
    QVERIFY(peakAt(in, best) <= r.usableBytes.value);
    QVERIFY(peakAt(in, best + 1) > r.usableBytes.value);
    QCOMPARE(best, kQloraPresetMaxSequence);
    AccountingInput datasheet = in;
    datasheet.overheads = datasheetOverheads();
    QCOMPARE(account(datasheet, gpuOf(in)).maxSequence->value, kQloraPresetMaxSequenceDatasheet);
}

// Learned positions stop at the table's length (the model's seq), as inference's max_context does.
void TestMaxSequence::learnedPositionsStopAtTheTable() {
    AccountingInput in = gpt2Rope(1024, 1, "H100-SXM");
    in.model.position = PositionKind::learned;
    const AccountingResult r = account(in, gpuOf(in));
    QVERIFY(r.maxSequence);
    QCOMPARE(r.maxSequence->value, 1024.0);
    QVERIFY2(r.maxSequence->formula.find("learned positions") != std::string::npos,
             r.maxSequence->formula.c_str());
    in.batch = 512; // now 1024 tokens do not fit: the answer is below the table's length
    const AccountingResult big = account(in, gpuOf(in));
    QVERIFY(big.maxSequence->value < 1024);
    QVERIFY(peakAt(in, big.maxSequence->value) <= big.usableBytes.value);
    QVERIFY(peakAt(in, big.maxSequence->value + 1) > big.usableBytes.value);
}

void TestMaxSequence::noSequenceOrNoActivations_data() {
    QTest::addColumn<AccountingInput>("input");
    AccountingInput dense;
    dense.model.kind = ModelKind::dense;
    dense.model.parameters = 7e9;
    dense.model.seq = 2048;
    QTest::newRow("dense: activations not modelled") << dense;
    AccountingInput cruncher;
    cruncher.model.kind = ModelKind::cruncher;
    cruncher.model.dim = 4;
    cruncher.model.layers = 2;
    QTest::newRow("cruncher: no sequence") << cruncher;
    AccountingInput linear2;
    linear2.model.kind = ModelKind::linear2;
    linear2.model.dim = 4;
    linear2.model.out = 2;
    QTest::newRow("linear2: no sequence") << linear2;
}

void TestMaxSequence::noSequenceOrNoActivations() {
    QFETCH(AccountingInput, input);
    QVERIFY(validate(input).ok());
    QVERIFY(!account(input, gpuOf(input)).maxSequence);
}

QTEST_APPLESS_MAIN(TestMaxSequence)
#include "tst_max_sequence.moc"
