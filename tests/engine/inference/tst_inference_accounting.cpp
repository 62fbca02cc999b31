// SPDX-License-Identifier: GPL-3.0-or-later
// Serving a transformer: weights at each format, the KV cache, decode on the roofline and the largest
// batch, against published configurations and hand-derived values (each row's derivation beside it).
#include "engine/inference/inference_accounting.h"
#include "engine/models/model_presets.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

namespace {

InferenceInput presetInput(const char* id, double context) {
    InferenceInput in;
    in.model = findModelPreset(id)->model;
    in.context = context;
    return in;
}

InferenceResult run(const InferenceInput& in) {
    const InputError error = validateInference(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return accountInference(in, *GpuCatalog::builtIn().find(in.gpu));
}

} // namespace

class TestInferenceAccounting : public QObject {
    Q_OBJECT
private slots:
    void kvCachePerToken_data();
    void kvCachePerToken();
    void llama3_8bOneGibPerSequence();
    void gqaShrinksKvCache();
    void weightBytes_data();
    void weightBytes();
    void batchOneDecodeIsMemoryBound();
    void largeBatchShortContextIsComputeBound();
    void maxBatchFormula_data();
    void maxBatchFormula();
    void maxContextFits();
    void tensorParallelSplitsPerGpu();
    void moeDecodeReadsRoutedExperts_data();
    void moeDecodeReadsRoutedExperts();
    void badInput_data();
    void badInput();
    void learnedPositionsBoundTheContext();
};

// 2·L·g·(d/a)·bytes; the shapes from the Llama 3 config.json files (model_presets.cpp).
void TestInferenceAccounting::kvCachePerToken_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("kvCache");
    QTest::addColumn<double>("bytes");
    // Llama 3 8B: L 32, g 8, d/a = 4096/32 = 128: 2·32·8·128·2 = 131,072 B in bf16.
    QTest::newRow("llama3-8b bf16") << "llama3-8b"
                                    << "bf16" << 131072.0;
    QTest::newRow("llama3-8b fp8") << "llama3-8b"
                                   << "fp8" << 65536.0;
    QTest::newRow("llama3-8b fp32") << "llama3-8b"
                                    << "fp32" << 262144.0;
    // Llama 3 70B: L 80, g 8, d/a = 8192/64 = 128: 2·80·8·128·2 = 327,680 B.
    QTest::newRow("llama3-70b bf16") << "llama3-70b"
                                     << "bf16" << 327680.0;
    QTest::newRow("llama3-70b fp8") << "llama3-70b"
                                    << "fp8" << 163840.0;
    // GPT-2 small, multi-head: 2·12·12·64·2 = 36,864 B.
    QTest::newRow("gpt2-small fp16") << "gpt2-small"
                                     << "fp16" << 36864.0;
}

void TestInferenceAccounting::kvCachePerToken() {
    QFETCH(QString, preset);
    QFETCH(QString, kvCache);
    QFETCH(double, bytes);
    InferenceInput in = presetInput(preset.toUtf8().constData(), 1024);
    in.kvCache = *storageTypeFromName(kvCache.toStdString());
    const InferenceResult r = run(in);
    QCOMPARE(r.kvCacheBytesPerToken.value, bytes);
    QCOMPARE(r.kvCacheBytes.value, 1024 * bytes);
}

// Llama 3 8B, bf16, 8192 tokens: 131,072 · 8192 = 2^30 B = exactly 1 GiB per sequence.
void TestInferenceAccounting::llama3_8bOneGibPerSequence() {
    const InferenceResult r = run(presetInput("llama3-8b", 8192));
    QCOMPARE(r.kvCacheBytes.value, 1073741824.0);
    QCOMPARE(r.memory.kvCache.value, 1073741824.0);
    QVERIFY(QString::fromStdString(r.kvCacheBytesPerToken.formula).endsWith("= 131072 B"));
}

// Llama 3 70B with its 8 KV heads against the same model with 64 (multi-head attention): 8× less cache.
void TestInferenceAccounting::gqaShrinksKvCache() {
    InferenceInput gqa = presetInput("llama3-70b", 8192);
    InferenceInput mha = gqa;
    mha.model.kvHeads = 64;
    const double ratio = run(mha).kvCacheBytes.value / run(gqa).kvCacheBytes.value;
    QCOMPARE(ratio, 8.0);
    QCOMPARE(run(mha).kvCacheBytesPerToken.value, 2621440.0); // 2·80·64·128·2
}

// Llama 3 8B (8,030,261,248 parameters): Q = the layers' matmul weights = 32·(attention 2·4096² +
// 2·4096·1024 = 41,943,040 + SwiGLU 3·4096·14336 = 176,160,768) = 6,979,321,856; R = the rest
// (embedding and head 2·128256·4096, norms 65·4096) = 1,050,939,392, kept at 2 B (4 B under fp32).
void TestInferenceAccounting::weightBytes_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("groupSize");
    QTest::addColumn<double>("bytes");
    QTest::newRow("fp32") << "fp32" << 128.0 << 32121044992.0;     // 8,030,261,248 × 4
    QTest::newRow("bf16") << "bf16" << 128.0 << 16060522496.0;     // × 2
    QTest::newRow("fp16") << "fp16" << 128.0 << 16060522496.0;     // × 2
    QTest::newRow("fp8") << "fp8" << 128.0 << 9081200640.0;        // Q + 2R
    QTest::newRow("int8 g128") << "int8" << 128.0 << 9190252544.0; // Q(1 + 2/128) + 2R
    QTest::newRow("int4 g128") << "int4" << 128.0 << 5700591616.0; // Q(0.5 + 2/128) + 2R
    QTest::newRow("int4 g64") << "int4" << 64.0 << 5809643520.0;   // Q(0.5 + 2/64) + 2R
}

void TestInferenceAccounting::weightBytes() {
    QFETCH(QString, format);
    QFETCH(double, groupSize);
    QFETCH(double, bytes);
    InferenceInput in = presetInput("llama3-8b", 8192);
    in.weights = *weightFormatFromName(format.toStdString());
    in.groupSize = groupSize;
    const InferenceResult r = run(in);
    QCOMPARE(r.quantizedParameters, 6979321856.0);
    QCOMPARE(r.otherParameters, 1050939392.0);
    QCOMPARE(r.weightsBytes.value, bytes);
}

// Batch 1 at 8192 tokens on an H100 SXM (3.35e12 B/s, 989.4e12 bf16 FLOP/s): the step reads the weights
// less the untied embedding table (16,060,522,496 − 2·(525,336,576 − 4096) = 15,009,857,536 B) and the
// 1 GiB cache: 16,083,599,360 B / 3.35e12 = 4.801 ms, while its 2·7,504,658,432 + 4·32·8192·4096 =
// 19,304,284,160 FLOPs take 19.5 µs: memory bound, ≈ 208 tokens/s.
void TestInferenceAccounting::batchOneDecodeIsMemoryBound() {
    const InferenceResult r = run(presetInput("llama3-8b", 8192));
    QCOMPARE(r.decodeBytesPerToken.value, 16083599360.0);
    QCOMPARE(r.decodeFlopsPerToken.value, 19304284160.0);
    QCOMPARE(r.decodeSecondsPerToken.value, 16083599360.0 / 3.35e12);
    QCOMPARE(r.bound, std::string("memory"));
    QVERIFY(std::abs(r.decodeTokensPerSecond.value - 208.29) < 0.01);
    QVERIFY(r.arithmeticIntensity.value < r.ridgeFlopsPerByte.value);
    QCOMPARE(r.ridgeFlopsPerByte.value, 989.4e12 / 3.35e12);
    // Its roofline point lies on the bandwidth slope: 19,304,284,160 / 4.801 ms = 3.35e12 × 1.2002
    // = 4.021e12 FLOP/s; the 8192-token prefill is compute bound, at the peak.
    QVERIFY(std::abs(r.decodeFlopsPerSecondPerGpu.value - 4.0208258e12) < 1e6);
    QVERIFY(std::abs(r.decodeFlopsPerSecondPerGpu.value - 3.35e12 * r.arithmeticIntensity.value) < 1e3);
    QVERIFY(r.prefillArithmeticIntensity.value > r.ridgeFlopsPerByte.value);
    QVERIFY(std::abs(r.prefillFlopsPerSecondPerGpu.value / 989.4e12 - 1) < 1e-12);
    QCOMPARE(r.prefillArithmeticIntensity.value, r.prefillFlops.value / r.prefillBytes.value);
}

// Batch 1024 at 128 tokens: 1024·(15,009,316,864 + 4·32·128·4096) = 1.544e13 FLOPs = 15.6 ms at peak,
// against (15,009,857,536 + 1024·128·131072) B / 3.35e12 = 9.6 ms: compute bound.
void TestInferenceAccounting::largeBatchShortContextIsComputeBound() {
    InferenceInput in = presetInput("llama3-8b", 128);
    in.batch = 1024;
    const InferenceResult r = run(in);
    QCOMPARE(r.decodeStepFlops.value, 1024 * (15009316864.0 + 4.0 * 32 * 128 * 4096));
    QCOMPARE(r.bound, std::string("compute"));
    QCOMPARE(r.decodeSecondsPerToken.value, r.decodeStepFlops.value / 989.4e12);
    QVERIFY(r.arithmeticIntensity.value > r.ridgeFlopsPerByte.value);
    QVERIFY(std::abs(r.decodeFlopsPerSecondPerGpu.value / 989.4e12 - 1) < 1e-12); // at the peak
}

// Llama 3 8B bf16 at 8192 tokens; each sequence takes 8192·131072 (cache) + 8192·2·(4096 + 2·14336)
// (activations) + 4·128256 (logits) = 1,611,125,760 B.
// Datasheet basis (the lecture's 80 GB = 80e9, no overheads): free 80e9 − 16,060,522,496 =
// 63,939,477,504 B: floor(39.69) = 39 sequences.
// Usable basis: the H100 SXM's 81,559 MiB = 85,520,809,984 B (modal-labs/modal-client PR #2797) less one
// cuBLAS workspace 4096 KiB·8 = 33,554,432 B and one cuBLASLt 1 MiB (aten/src/ATen/cuda/CublasHandlePool.cpp;
// serving has no backward thread): free 85,520,809,984 − 34,603,008 − 16,060,522,496 = 69,425,684,480 B:
// floor(43.09) = 43 sequences. In each basis that many fit and one more does not.
void TestInferenceAccounting::maxBatchFormula_data() {
    QTest::addColumn<bool>("datasheet");
    QTest::addColumn<double>("maxBatch");
    QTest::addColumn<double>("overheadBytes");
    QTest::newRow("datasheet basis") << true << 39.0 << 0.0;
    QTest::newRow("usable basis") << false << 43.0 << 34603008.0;
}

void TestInferenceAccounting::maxBatchFormula() {
    QFETCH(bool, datasheet);
    QFETCH(double, maxBatch);
    QFETCH(double, overheadBytes);
    InferenceInput in = presetInput("llama3-8b", 8192);
    if (datasheet)
        in.overheads = datasheetOverheads();
    const InferenceResult r = run(in);
    QCOMPARE(r.maxBatch.value, maxBatch);
    QCOMPARE(r.overheads.totalBytes, overheadBytes);
    QCOMPARE(r.usableBytes.value, datasheet ? 80e9 : 85520809984.0);
    QCOMPARE(r.predictedBytes.value, r.memory.total.value + overheadBytes);
    in.batch = maxBatch;
    QVERIFY(run(in).fits);
    in.batch = maxBatch + 1;
    QVERIFY(!run(in).fits);
}

void TestInferenceAccounting::maxContextFits() {
    for (const bool fixedPrompt : {false, true}) {
        InferenceInput in = presetInput("llama3-70b", 4096);
        in.weights = WeightFormat::int4;
        in.batch = 8;
        if (fixedPrompt)
            in.prompt = 512;
        const double maxContext = run(in).maxContext.value;
        QVERIFY(maxContext > 0);
        in.context = maxContext;
        QVERIFY(run(in).fits);
        in.context = maxContext + 1;
        QVERIFY(!run(in).fits);
    }
}

// Tensor parallelism over N GPUs splits the cache and the decode step's time by N, and the weights by N
// except the RMSNorm weights every GPU keeps (Llama 3 70B: 80·2·8192 + 8192 = 1,318,912, at 2 B).
void TestInferenceAccounting::tensorParallelSplitsPerGpu() {
    InferenceInput one = presetInput("llama3-70b", 8192);
    InferenceInput eight = one;
    eight.gpus = 8;
    const InferenceResult a = run(one), b = run(eight);
    QCOMPARE(a.memory.weights.value, a.weightsBytes.value);
    QCOMPARE(b.memory.weights.value, a.weightsBytes.value / 8 + 1318912.0 * 2 * 7 / 8);
    QCOMPARE(b.memory.kvCache.value, a.kvCacheBytes.value / 8);
    QCOMPARE(b.decodeSecondsPerToken.value, a.decodeSecondsPerToken.value / 8);
    QVERIFY(!a.fits); // 70B in bf16 is 141 GB: not on one 80 GB GPU
    QVERIFY(b.fits);
}

// Mixtral 8x7B, 8 experts, top-2: balanced routing reads min(8, 2·B) experts per layer per step.
void TestInferenceAccounting::moeDecodeReadsRoutedExperts_data() {
    QTest::addColumn<double>("batch");
    QTest::addColumn<double>("experts");
    QTest::newRow("batch 1: 2 experts") << 1.0 << 2.0;
    QTest::newRow("batch 3: 6 experts") << 3.0 << 6.0;
    QTest::newRow("batch 4: all 8") << 4.0 << 8.0;
    QTest::newRow("batch 64: all 8") << 64.0 << 8.0;
}

void TestInferenceAccounting::moeDecodeReadsRoutedExperts() {
    QFETCH(double, batch);
    QFETCH(double, experts);
    InferenceInput in = presetInput("mixtral-8x7b", 1024);
    in.batch = batch;
    const InferenceResult r = run(in);
    QCOMPARE(r.expertsReadPerStep.value, experts);
    // Unread experts: 32 layers × (8 − read) × 3·4096·14336 weights × 2 B.
    const double unread = 32 * (8 - experts) * 3.0 * 4096 * 14336 * 2;
    const double lookups = 2 * (32000.0 * 4096 - batch * 4096); // untied embedding: only B rows read
    QCOMPARE(r.decodeBytesPerToken.value, r.weightsBytes.value - unread - lookups + r.kvCacheBytes.value);
}

void TestInferenceAccounting::badInput_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<double>("context");
    QTest::addColumn<double>("prompt");
    QTest::addColumn<double>("groupSize");
    QTest::addColumn<double>("gpus");
    QTest::newRow("context 0") << "context" << 0.0 << 0.0 << 128.0 << 1.0;
    QTest::newRow("prompt beyond context") << "prompt" << 100.0 << 101.0 << 128.0 << 1.0;
    QTest::newRow("group size not dividing d") << "group-size" << 100.0 << 0.0 << 100.0 << 1.0;
    QTest::newRow("gpus not dividing kv heads") << "gpus" << 100.0 << 0.0 << 128.0 << 16.0;
}

void TestInferenceAccounting::badInput() {
    QFETCH(QString, field);
    QFETCH(double, context);
    QFETCH(double, prompt);
    QFETCH(double, groupSize);
    QFETCH(double, gpus);
    InferenceInput in = presetInput("llama3-8b", context);
    in.weights = WeightFormat::int4;
    if (prompt > 0)
        in.prompt = prompt;
    in.groupSize = groupSize;
    in.gpus = gpus;
    QCOMPARE(QString::fromStdString(validateInference(in).field), field);
}

// GPT-2's learned position table has 1024 rows: no context beyond it, whatever memory is left.
void TestInferenceAccounting::learnedPositionsBoundTheContext() {
    InferenceInput in = presetInput("gpt2-small", 1024);
    const InferenceResult r = run(in);
    QCOMPARE(r.maxContext.value, 1024.0);
    QVERIFY(
        QString::fromStdString(r.maxContext.formula).contains("capped at the learned position table's 1024; M = "));
    in.context = 1025;
    QCOMPARE(QString::fromStdString(validateInference(in).field), QString("context"));
}

QTEST_APPLESS_MAIN(TestInferenceAccounting)
#include "tst_inference_accounting.moc"
