// SPDX-License-Identifier: GPL-3.0-or-later
// The overhead ledger (memory_overheads.h, caching_allocator.h): every figure is a cited constant —
// PyTorch's caching allocator and cuBLAS workspace sizes, NCCL's default buffer, TransformerEngine's amax
// history, the catalog's driver-reported memory — and "fits" is judged on the peak plus the counted
// lines against usable memory, the same criterion the searches for the largest batch and sequence use.
#include "engine/accounting/accounting.h"
#include "engine/accounting/caching_allocator.h"
#include "engine/accounting/max_sequence.h"
#include "engine/accounting/memory_overheads.h"
#include "engine/text/formula_text.h"

#include <QtTest>

using namespace napkin;

namespace {

const GpuSpec& gpu(const std::string& id) {
    return *GpuCatalog::builtIn().find(id);
}

AccountingInput gpt2(const std::string& gpuId, double batch) {
    AccountingInput in;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = 768;
    in.model.layers = 12;
    in.model.heads = 12;
    in.model.vocab = 50257;
    in.model.seq = 1024;
    in.precision = PrecisionRecipe::mixedBf16;
    in.batch = batch;
    in.gpu = gpuId;
    return in;
}

const OverheadLine* lineOf(const AccountingResult& r, OverheadKind kind) {
    for (const OverheadLine& l : r.overheads.lines)
        if (l.kind == kind)
            return &l;
    return nullptr;
}

} // namespace

class TestMemoryOverheads : public QObject {
    Q_OBJECT
private slots:
    void allocatorBlock_data();
    void allocatorBlock();
    void allocatorSegment_data();
    void allocatorSegment();
    void cublasWorkspaces_data();
    void cublasWorkspaces();
    void usableMemory_data();
    void usableMemory();
    void datasheetBasisIsTheLecture();
    void fitsIsPeakPlusOverheads();
    void searchesUseTheSameCriterion_data();
    void searchesUseTheSameCriterion();
    void roundingByHand();
    void cudaContextNotMeasured();
    void ncclPerLayout_data();
    void ncclPerLayout();
    void fp8Copies();
    void switchesTurnLinesOff();
    void probeMatchesFullAccount();
};

// round_size() in PyTorch's c10/cuda/CUDACachingAllocator.cpp: kMinBlockSize = 512, "all sizes are rounded
// to at least 512 bytes". The first rows are a torch.cuda.memory_snapshot() posted on discuss.pytorch.org
// ("unexpected 8519680B memory allocation during matrix multiplication"): W = 1000×10 fp32 (40,000 B) in a
// block of 40,448 B, b and y (40 B) in 512-byte blocks, X (4,000 B) in 4,096.
void TestMemoryOverheads::allocatorBlock_data() {
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("block");
    QTest::newRow("snapshot: W 1000×10 fp32") << 40000.0 << 40448.0;
    QTest::newRow("snapshot: b, 10 fp32") << 40.0 << 512.0;
    QTest::newRow("snapshot: X, 1000 fp32") << 4000.0 << 4096.0;
    QTest::newRow("empty tensor: nothing") << 0.0 << 0.0;
    QTest::newRow("1 byte → 512") << 1.0 << 512.0;
    QTest::newRow("512 stays") << 512.0 << 512.0;
    QTest::newRow("513 → 1024") << 513.0 << 1024.0;
    QTest::newRow("GPT-2 c_attn weight bf16, 768·2304·2") << 3538944.0 << 3538944.0;
}

void TestMemoryOverheads::allocatorBlock() {
    QFETCH(double, bytes);
    QFETCH(double, block);
    QCOMPARE(allocatorBlockBytes(bytes), block);
    QCOMPARE(allocatorRoundingBytes(bytes), block - bytes);
}

// get_allocation_size(): kSmallBuffer 2 MiB for requests ≤ kSmallSize (1 MiB), kLargeBuffer 20 MiB below
// kMinLargeAlloc (10 MiB), else kRoundLarge (2 MiB) multiples. The same snapshot shows the 8,519,680-byte
// cuBLAS workspace in a "large" segment of total_size 20,971,520 and the small tensors in one of 2,097,152.
void TestMemoryOverheads::allocatorSegment_data() {
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("segment");
    QTest::newRow("snapshot: 40,000 B → small segment") << 40000.0 << 2097152.0;
    QTest::newRow("snapshot: cuBLAS workspace → 20 MiB") << 8519680.0 << 20971520.0;
    QTest::newRow("1 MiB exactly is small") << 1048576.0 << 2097152.0;
    QTest::newRow("1 MiB + 1 is large") << 1048577.0 << 20971520.0;
    QTest::newRow("10 MiB: its own, 2 MiB multiple") << 10485760.0 << 10485760.0;
    QTest::newRow("10 MiB + 1 → 12 MiB") << 10485761.0 << 12582912.0;
}

void TestMemoryOverheads::allocatorSegment() {
    QFETCH(double, bytes);
    QFETCH(double, segment);
    QCOMPARE(allocatorSegmentBytes(bytes), segment);
}

// CublasHandlePool.cpp parseChosenWorkspaceSize(): ":4096:2:16:8" = 4096·1024·2 + 16·1024·8 = 8,519,680 B
// (the snapshot above shows exactly that block), 4096·8·1024 = 32 MiB on compute capability 9.0; cuBLASLt:
// CUBLASLT_WORKSPACE_SIZE default 1024 KiB. Two handles in a training step (forward, autograd's thread).
void TestMemoryOverheads::cublasWorkspaces_data() {
    QTest::addColumn<QString>("gpuId");
    QTest::addColumn<double>("cublas");
    QTest::newRow("H100-SXM, sm 9.0: 32 MiB") << "H100-SXM" << 2 * 33554432.0;
    QTest::newRow("A100-SXM, sm 8.0: :4096:2:16:8") << "A100-SXM" << 2 * 8519680.0;
    QTest::newRow("L40S, sm 8.9: :4096:2:16:8") << "L40S" << 2 * 8519680.0;
    QTest::newRow("B200, sm 10.0: :4096:2:16:8 at 26a3905") << "B200" << 2 * 8519680.0;
}

void TestMemoryOverheads::cublasWorkspaces() {
    QFETCH(QString, gpuId);
    QFETCH(double, cublas);
    const AccountingResult r = account(gpt2(gpuId.toStdString(), 1), gpu(gpuId.toStdString()));
    const OverheadLine* ws = lineOf(r, OverheadKind::cublasWorkspace);
    const OverheadLine* lt = lineOf(r, OverheadKind::cublasLtWorkspace);
    QVERIFY(ws && lt);
    QCOMPARE(ws->bytes, cublas);
    QVERIFY(ws->counted);
    QCOMPARE(lt->bytes, 2 * 1048576.0);
    QVERIFY(!ws->source.empty() && !ws->formula.empty());
}

// The catalog's driver-reported memory (nvidia-smi's 81,559 MiB for an H100 SXM, 81,920 MiB for an
// A100 80GB, 46,068 MiB for an L40S); a part without one falls back to the datasheet figure and says so.
void TestMemoryOverheads::usableMemory_data() {
    QTest::addColumn<QString>("gpuId");
    QTest::addColumn<double>("usable");
    QTest::addColumn<bool>("driver");
    QTest::newRow("H100-SXM 81,559 MiB") << "H100-SXM" << 81559.0 * 1048576 << true;
    QTest::newRow("A100-SXM 81,920 MiB") << "A100-SXM" << 81920.0 * 1048576 << true;
    QTest::newRow("L40S 46,068 MiB") << "L40S" << 46068.0 * 1048576 << true;
    QTest::newRow("H100-PCIe: datasheet 80e9") << "H100-PCIe" << 80e9 << false;
}

void TestMemoryOverheads::usableMemory() {
    QFETCH(QString, gpuId);
    QFETCH(double, usable);
    QFETCH(bool, driver);
    const AccountingInput in = gpt2(gpuId.toStdString(), 1);
    const AccountingResult r = account(in, gpu(in.gpu));
    QCOMPARE(r.usableBytes.value, usable);
    QCOMPARE(r.overheads.nominalBytes, gpu(in.gpu).memoryBytes);
    QCOMPARE(usableBytes(in, gpu(in.gpu)), usable);
    QCOMPARE(QString::fromStdString(r.usableBytes.formula).contains("datasheet"), !driver);
}

// The lecture: 8 H100s (80 GB = 80e9 each), AdamW, fp32, states pooled → 4+4+4+4 = 16 B/param → 40e9.
void TestMemoryOverheads::datasheetBasisIsTheLecture() {
    AccountingInput in;
    in.model.kind = ModelKind::dense;
    in.model.parameters = 1e9;
    in.gpus = 8;
    in.zeroStage = 3;
    in.precision = PrecisionRecipe::fp32;
    in.overheads = datasheetOverheads();
    const AccountingResult r = account(in, gpu("H100-SXM"));
    QCOMPARE(r.maxParametersPooled.value, 40e9);
    QCOMPARE(r.usableBytes.value, 80e9);
    QCOMPARE(r.overheads.totalBytes, 0.0);
    QCOMPARE(r.predictedBytes.value, r.peakMemory.value);
    for (const OverheadLine& l : r.overheads.lines)
        QVERIFY(!l.counted);
    // The realistic basis gives more room (85.52e9 B) less the fixed overheads.
    in.overheads = {};
    const AccountingResult real = account(in, gpu("H100-SXM"));
    const double room = (81559.0 * 1048576 - real.overheads.fixedBytes);
    QCOMPARE(real.maxParametersPooled.value, std::floor(8 * room / 16));
}

void TestMemoryOverheads::fitsIsPeakPlusOverheads() {
    const AccountingInput in = gpt2("H100-SXM", 8);
    const AccountingResult r = account(in, gpu(in.gpu));
    double counted = 0;
    for (const OverheadLine& l : r.overheads.lines)
        counted += l.counted ? l.bytes : 0;
    QCOMPARE(r.overheads.totalBytes, counted);
    QCOMPARE(r.predictedBytes.value, r.peakMemory.value + counted);
    QVERIFY(counted >= 2 * 33554432.0 + 2 * 1048576.0); // the workspaces at least
    QCOMPARE(r.fits, r.predictedBytes.value <= r.usableBytes.value);
}

// One screen never contradicts itself: at max_batch the step fits and at max_batch + 1 it does not, and
// likewise for max_sequence, in both bases, with a fragmentation allowance too.
void TestMemoryOverheads::searchesUseTheSameCriterion_data() {
    QTest::addColumn<int>("basis");
    QTest::addColumn<double>("fragmentation");
    QTest::newRow("datasheet") << int(MemoryBasis::datasheet) << 0.0;
    QTest::newRow("usable") << int(MemoryBasis::usable) << 0.0;
    QTest::newRow("usable, 10% fragmentation") << int(MemoryBasis::usable) << 0.1;
}

void TestMemoryOverheads::searchesUseTheSameCriterion() {
    QFETCH(int, basis);
    QFETCH(double, fragmentation);
    AccountingInput in = gpt2("H100-SXM", 4);
    in.overheads.basis = MemoryBasis(basis);
    in.overheads.fragmentation = fragmentation;
    const GpuSpec& g = gpu(in.gpu);
    const AccountingResult r = account(in, g);
    QVERIFY(r.maxBatch && r.maxBatch->value >= 1);
    AccountingInput at = in;
    at.batch = r.maxBatch->value;
    QVERIFY(accountStep(at, g).fits);
    QVERIFY(peakFits(at, g));
    at.batch += 1;
    QVERIFY(!accountStep(at, g).fits);
    QVERIFY(!peakFits(at, g));
    QVERIFY(r.maxSequence);
    AccountingInput seq = in;
    seq.model.seq = r.maxSequence->value;
    if (seq.model.seq < in.model.seq) { // learned positions cap the search at the table's length
        QVERIFY(accountStep(seq, g).fits);
        seq.model.seq += 1;
        QVERIFY(!accountStep(seq, g).fits);
    }
}

// By hand: linear2 keeps one B×D hidden activation. D = 100, B = 1, fp32: 400 B → a 512-byte block, 112 B of
// rounding. The lecture's Cruncher (D = 4, 2 layers, batch 2, fp32) keeps 2 × (2·4·4 = 32 B) → 2 × 480.
void TestMemoryOverheads::roundingByHand() {
    AccountingInput in;
    in.model.kind = ModelKind::linear2;
    in.model.dim = 100;
    in.model.out = 10;
    in.batch = 1;
    in.precision = PrecisionRecipe::fp32;
    in.gpu = "H100-SXM";
    AccountingResult r = account(in, gpu(in.gpu));
    QCOMPARE(lineOf(r, OverheadKind::allocatorRounding)->bytes, 112.0);
    in.model.kind = ModelKind::cruncher;
    in.model.dim = 4;
    in.model.layers = 2;
    in.batch = 2;
    r = account(in, gpu(in.gpu));
    QCOMPARE(r.activations.bytes, 64.0);
    QCOMPARE(lineOf(r, OverheadKind::allocatorRounding)->bytes, 960.0);
    // A transformer's saved tensors, each rounded: GPT-2 small's are multiples of 512 B but the LayerNorm
    // statistics (b·s fp32 each, 4 KiB at b = 1) are too, so the rounding is a whole number of bytes < 512
    // per tensor and layer.
    const AccountingResult t = account(gpt2("H100-SXM", 1), gpu("H100-SXM"));
    const double rounding = lineOf(t, OverheadKind::allocatorRounding)->bytes;
    QVERIFY(rounding >= 0);
    QVERIFY(rounding < 512.0 * (t.activations.ledger.size() * 12 + 1));
}

void TestMemoryOverheads::cudaContextNotMeasured() {
    AccountingInput in = gpt2("H100-SXM", 1);
    AccountingResult r = account(in, gpu(in.gpu));
    const OverheadLine* context = lineOf(r, OverheadKind::cudaContext);
    QVERIFY(!context->measured);
    QVERIFY(!context->counted);
    QCOMPARE(context->bytes, 0.0);
    QVERIFY(QString::fromStdString(context->formula).startsWith("not measured"));
    in.overheads.cudaContextBytes = 500e6; // the user's own nvidia-smi reading
    r = account(in, gpu(in.gpu));
    context = lineOf(r, OverheadKind::cudaContext);
    QVERIFY(context->counted);
    QCOMPARE(context->bytes, 500e6);
}

// NCCL src/init.cc: DEFAULT_BUFFSIZE (1 << 22) = 4 MiB. One communicator per group of more than one GPU.
void TestMemoryOverheads::ncclPerLayout_data() {
    QTest::addColumn<double>("gpus");
    QTest::addColumn<double>("tp");
    QTest::addColumn<double>("channels");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<bool>("counted");
    QTest::newRow("one GPU: none") << 1.0 << 1.0 << 16.0 << 0.0 << true;
    QTest::newRow("8 GPUs dp, channels unset: not counted") << 8.0 << 1.0 << 0.0 << 0.0 << false;
    QTest::newRow("8 GPUs dp, 16 channels") << 8.0 << 1.0 << 16.0 << 16 * 4194304.0 << true;
    QTest::newRow("8 GPUs tp 2 × dp 4, 16 channels") << 8.0 << 2.0 << 16.0 << 2 * 16 * 4194304.0 << true;
}

void TestMemoryOverheads::ncclPerLayout() {
    QFETCH(double, gpus);
    QFETCH(double, tp);
    QFETCH(double, channels);
    QFETCH(double, bytes);
    QFETCH(bool, counted);
    AccountingInput in = gpt2("H100-SXM", 1);
    in.gpus = gpus;
    in.parallel.tp = tp;
    if (channels > 0)
        in.overheads.ncclChannels = channels;
    QVERIFY2(validate(in).ok(), validate(in).message.c_str());
    const AccountingResult r = account(in, gpu(in.gpu));
    const OverheadLine* nccl = lineOf(r, OverheadKind::ncclBuffers);
    QCOMPARE(nccl->bytes, bytes);
    QCOMPARE(nccl->measured, counted);
    // NCCL src/graph/connect.cc: MIN_NCHANNELS and MAX_NCHANNELS default to -2 (unset): no count to cite,
    // which the line says rather than guess one.
    QVERIFY(nccl->source.find("src/graph/connect.cc") != std::string::npos);
    if (!counted)
        QVERIFY2(nccl->formula.find("no default count to cite") != std::string::npos, nccl->formula.c_str());
}

// TransformerEngine: fp8 weights kept row-wise and transposed on Hopper; DelayedScaling's
// amax_history_len = 1024 fp32 per quantized tensor (3 per GEMM, 4 GEMMs per layer).
void TestMemoryOverheads::fp8Copies() {
    AccountingInput in = gpt2("H100-SXM", 1);
    AccountingResult r = account(in, gpu(in.gpu));
    QVERIFY(!lineOf(r, OverheadKind::fp8WeightCopies)); // not an fp8 recipe: no line
    in.precision = PrecisionRecipe::fp8Mixed;
    r = account(in, gpu(in.gpu));
    const OverheadLine* copies = lineOf(r, OverheadKind::fp8WeightCopies);
    const OverheadLine* amax = lineOf(r, OverheadKind::fp8AmaxHistory);
    QVERIFY(copies && amax);
    QCOMPARE(copies->bytes, 2 * r.parameters.matmulParameters);
    QCOMPARE(amax->bytes, 12 * 4 * 3 * 1024 * 4.0);
}

void TestMemoryOverheads::switchesTurnLinesOff() {
    AccountingInput in = gpt2("H100-SXM", 1);
    in.overheads.libraryWorkspaces = false;
    in.overheads.allocatorRounding = false;
    const AccountingResult r = account(in, gpu(in.gpu));
    QVERIFY(!lineOf(r, OverheadKind::cublasWorkspace)->counted);
    QVERIFY(lineOf(r, OverheadKind::cublasWorkspace)->bytes > 0); // still shown, not counted
    QCOMPARE(r.overheads.totalBytes, 0.0);
    QCOMPARE(r.predictedBytes.value, r.peakMemory.value);
}

// The probe (no texts) and the full accounting agree to the bit.
void TestMemoryOverheads::probeMatchesFullAccount() {
    AccountingInput in = gpt2("H100-SXM", 3);
    in.overheads.fragmentation = 0.05;
    in.gpus = 8;
    in.overheads.ncclChannels = 8;
    const AccountingResult r = account(in, gpu(in.gpu));
    QCOMPARE(requiredBytes(in, gpu(in.gpu)), r.predictedBytes.value);
    QCOMPARE(r.overheads.fragmentationBytes, 0.05 * (r.peakMemory.value + r.overheads.roundingBytes));
}

QTEST_APPLESS_MAIN(TestMemoryOverheads)
#include "tst_memory_overheads.moc"
