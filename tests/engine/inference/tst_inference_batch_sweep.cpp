// SPDX-License-Identifier: GPL-3.0-or-later
// Decode speed against batch size: the sweep is the inference accounting at each B, batch 1 is memory
// bound at bandwidth / (weights read + KV cache), and the crossover batch is where one step's FLOPs /
// peak catch up with its bytes / bandwidth. Hand-derived from Llama 3 8B's configuration (Meta-Llama-3-8B
// config.json: d 4096, 32 layers, 32 heads, 8 KV heads, FFN 14336, V 128256, untied) and the H100 SXM
// datasheet (3.35 TB/s, 989.4 TFLOP/s dense bf16).
#include "engine/inference/inference_batch_sweep.h"
#include "engine/models/model_presets.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

namespace {

constexpr double kBandwidth = 3.35e12; // H100 SXM datasheet
constexpr double kPeak = 989.4e12;     // H100 SXM dense bf16 (whitepaper)
// Llama 3 8B in bf16: 8,030,261,248 parameters × 2 bytes.
constexpr double kWeightsBytes = 8030261248.0 * 2;
// A decode step reads every weight except the untied token embedding's rows no token looks up:
// 128,256 × 4,096 = 525,336,576 parameters, of which B rows of 4,096 are read.
constexpr double kEmbeddingBytes = 525336576.0 * 2;
constexpr double kRowBytes = 4096.0 * 2;
// KV cache per token: 2·L·kv_heads·head_dim·2 B = 2 × 32 × 8 × 128 × 2 = 131,072 B.
constexpr double kKvPerToken = 131072;
// Matmul parameters: 32 layers × (attention 2·4096² + 2·4096·1024 + SwiGLU 3·4096·14336) + head 4096·128256.
constexpr double kMatmulParameters =
    32.0 * (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336) + 4096.0 * 128256;

InferenceInput llama8b(double context, double batch) {
    InferenceInput in;
    in.model = findModelPreset("llama3-8b")->model;
    in.context = context;
    in.batch = batch;
    return in;
}

const GpuSpec& h100() {
    return *GpuCatalog::builtIn().find("H100-SXM");
}

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::fabs(b);
}

} // namespace

class TestInferenceBatchSweep : public QObject {
    Q_OBJECT
private slots:
    void batchOneIsMemoryBound_data();
    void batchOneIsMemoryBound();
    void crossover_data();
    void crossover();
    void sweepIsTheAccountingAtEachBatch();
    void batchesAreWholeAndIncreasing();
    void kvPerSequence();
    void inputBatchPastTheLimitIsOnTheChart();
};

void TestInferenceBatchSweep::batchOneIsMemoryBound_data() {
    QTest::addColumn<double>("context");
    QTest::addColumn<double>("tokensPerSecond");
    // bandwidth / (weights − unread embedding rows + S·kv_per_token), one sequence.
    for (const double s : {8192.0, 128.0}) {
        const double bytes = kWeightsBytes - kEmbeddingBytes + kRowBytes + s * kKvPerToken;
        QTest::addRow("S %g", s) << s << kBandwidth / bytes;
    }
    // S 8192: 3.35e12 / 16,083,599,360 B = 208.29 tokens/s.
}

void TestInferenceBatchSweep::batchOneIsMemoryBound() {
    QFETCH(double, context);
    QFETCH(double, tokensPerSecond);
    const BatchSweep sweep = sweepInferenceBatch(llama8b(context, 1), h100());
    QVERIFY(!sweep.points.empty());
    const BatchSweepPoint& first = sweep.points.front();
    QCOMPARE(first.batch, 1.0);
    QVERIFY(!first.computeBound);
    QVERIFY(first.fits);
    QVERIFY2(close(first.tokensPerSecond, tokensPerSecond),
             qPrintable(QStringLiteral("%1 vs %2")
                            .arg(first.tokensPerSecond, 0, 'g', 17)
                            .arg(tokensPerSecond, 0, 'g', 17)));
}

// Compute bound when B·F/peak > (W0 + B·(row + S·kv))/bandwidth, F = 2·N_matmul + 4·L·S·d and W0 the
// weights without the embedding table: B > W0 / (F·bandwidth/peak − row − S·kv). At S 8192 the
// denominator is negative (the KV cache costs more time per sequence than its FLOPs): never.
void TestInferenceBatchSweep::crossover_data() {
    QTest::addColumn<double>("context");
    QTest::addColumn<double>("crossover"); // 0: none
    for (const double s : {128.0, 256.0, 8192.0}) {
        const double flops = 2 * kMatmulParameters + 4 * 32 * s * 4096;
        const double denominator = flops * kBandwidth / kPeak - kRowBytes - s * kKvPerToken;
        const double crossover =
            denominator > 0 ? std::floor((kWeightsBytes - kEmbeddingBytes) / denominator) + 1 : 0;
        QTest::addRow("S %g", s) << s << crossover;
    }
    // S 128: 15,009,849,344 / (15,076,425,728 × 3.35/989.4 − 16,785,408) = 438.09 → B = 439.
}

void TestInferenceBatchSweep::crossover() {
    QFETCH(double, context);
    QFETCH(double, crossover);
    const BatchSweep sweep = sweepInferenceBatch(llama8b(context, 1), h100());
    if (crossover == 0) {
        QVERIFY(!sweep.crossoverBatch);
        QCOMPARE(sweep.crossover.value, 0.0);
        for (const BatchSweepPoint& p : sweep.points)
            QVERIFY(!p.computeBound);
        return;
    }
    QVERIFY(sweep.crossoverBatch);
    QCOMPARE(*sweep.crossoverBatch, crossover);
    QCOMPARE(sweep.crossover.value, crossover);
    QCOMPARE(accountInference(llama8b(context, crossover - 1), h100()).bound, std::string("memory"));
    QCOMPARE(accountInference(llama8b(context, crossover), h100()).bound, std::string("compute"));
    QVERIFY(sweep.lastBatch >= 4 * crossover); // the chart shows the compute-bound side
    QVERIFY(sweep.points.back().computeBound);
}

void TestInferenceBatchSweep::sweepIsTheAccountingAtEachBatch() {
    const InferenceInput in = llama8b(8192, 8);
    const BatchSweep sweep = sweepInferenceBatch(in, h100());
    const InferenceResult here = accountInference(in, h100());
    QCOMPARE(sweep.maxBatch, here.maxBatch.value);
    QVERIFY(here.maxBatch.value > 8 && here.maxBatch.value < 128);
    QCOMPARE(sweep.lastBatch, 256.0); // max(256, 2 × max_batch, 2 × B), no crossover at S 8192
    QCOMPARE(sweep.points.back().batch, sweep.lastBatch);
    for (const BatchSweepPoint& p : sweep.points) {
        const InferenceResult r = accountInference(llama8b(8192, p.batch), h100());
        QCOMPARE(p.tokensPerSecond, r.decodeTokensPerSecond.value);
        QCOMPARE(p.stepSeconds, r.decodeSecondsPerToken.value);
        QCOMPARE(p.fits, r.fits);
        QCOMPARE(p.fits, p.batch <= sweep.maxBatch);
    }
}

void TestInferenceBatchSweep::batchesAreWholeAndIncreasing() {
    QCOMPARE(sweepBatches(8), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8}));
    QCOMPARE(sweepBatches(1), (std::vector<double>{1}));
    const std::vector<double> b = sweepBatches(1 << 16);
    QCOMPARE(b.back(), 65536.0);
    for (std::size_t i = 1; i < b.size(); ++i) {
        QVERIFY(b[i] > b[i - 1]);
        QCOMPARE(b[i], std::floor(b[i]));
    }
    QVERIFY(b.size() <= 4 * 16 + 1);
}

// The figure: Llama 3 8B in bf16 at 8192 tokens holds 1 GiB of KV cache per sequence.
void TestInferenceBatchSweep::kvPerSequence() {
    const InferenceInput in = llama8b(8192, 3);
    const Quantity q = kvCacheBytesPerSequence(in, accountInference(in, h100()));
    QCOMPARE(q.value, 1073741824.0);
    QVERIFY(q.formula.find("8192 × 131072") != std::string::npos);
}

// A batch typed past the sweep's limit (the page and napkin-cli take up to 1e9) is still the sweep's last
// point or inside it, so the chart's "this setting" never falls off its axis: 2,000,000 sequences sweep to
// 2^21 = 2,097,152.
void TestInferenceBatchSweep::inputBatchPastTheLimitIsOnTheChart() {
    const InferenceInput in = llama8b(8192, 2e6);
    const BatchSweep sweep = sweepInferenceBatch(in, h100());
    QCOMPARE(sweep.lastBatch, 2097152.0);
    QCOMPARE(sweep.points.back().batch, 2097152.0);
    QCOMPARE(sweepInferenceBatch(llama8b(8192, 1 << 20), h100()).lastBatch, kSweepBatchLimit);
}

QTEST_APPLESS_MAIN(TestInferenceBatchSweep)
#include "tst_inference_batch_sweep.moc"

