// SPDX-License-Identifier: GPL-3.0-or-later
// The shipped config.json files (resources/models/) read as models: each parameter count (and active
// count for a mixture of experts) equals the exact count derived by hand from its config, cited below;
// the KV cache per token follows its attention kind; windowed layers' caches stop at the window.
#include "engine/inference/inference_accounting.h"
#include "engine/models/model_zoo.h"
#include "engine/models/parameter_count.h"

#include <QtTest>

using namespace napkin;

namespace {

ModelSpec zooModel(const char* id) {
    const ZooModel* zoo = findZooModel(id);
    if (!zoo)
        qFatal("no zoo model %s", id);
    const HfConfigResult r = zooModelConfig(*zoo);
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return r.config->model;
}

InferenceResult infer(const ModelSpec& m, double context) {
    InferenceInput in;
    in.model = m;
    in.context = context;
    const InputError e = validateInference(in);
    if (!e.ok())
        qFatal("%s: %s", e.field.c_str(), e.message.c_str());
    return accountInference(in, *GpuCatalog::builtIn().find(in.gpu));
}

} // namespace

class TestModelZoo : public QObject {
    Q_OBJECT
private slots:
    void everyShippedConfigReads();
    void exactCounts_data();
    void exactCounts();
    void kvBytesPerToken_data();
    void kvBytesPerToken();
    void windowCapsPastTheWindow_data();
    void windowCapsPastTheWindow();
    void quantizedWeightsAreTheLayersMatmuls();
    void checkpointFormatWeights_data();
    void checkpointFormatWeights();
};

void TestModelZoo::everyShippedConfigReads() {
    QVERIFY(zooModels().size() >= 12);
    for (const ZooModel& z : zooModels()) {
        QVERIFY2(!z.configJson.empty(), std::string(z.id).c_str());
        const HfConfigResult r = zooModelConfig(z);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(countParameters(r.config->model).total, z.publishedParameters);
    }
}

void TestModelZoo::exactCounts_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("active");
    // Derived by hand from each config.json (the modeling code's layers); rounded model-card figures
    // in quotes are the published cross-check.
    // GPT-2 (Radford et al. 2019; "124M"): 12·L·d² + 13·L·d + V·d + S·d + 2·d = 124,439,808.
    QTest::newRow("gpt2") << "gpt2" << 124439808.0 << 124439808.0;
    // GPT-NeoX-20B (issue 26; Black et al. 2022): 44 × (4·6144² + 4·6144 + 8·6144² + 5·6144 + 4·6144)
    //   + 2 × 50432·6144 + 2·6144 = 20,554,567,680.
    QTest::newRow("gpt-neox-20b") << "gpt-neox-20b" << 20554567680.0 << 20554567680.0;
    // Falcon 7B ("7B"): 32 × (4544·4672 + 4544² + 2·4544·18176 + 2·4544) + 65024·4544 + 2·4544
    //   = 6,921,720,704 (one LayerNorm per layer, tied head).
    QTest::newRow("falcon-7b") << "falcon-7b" << 6921720704.0 << 6921720704.0;
    // Llama 2 7B (issue 26): 6,738,415,616.
    QTest::newRow("llama-2-7b") << "llama-2-7b" << 6738415616.0 << 6738415616.0;
    // Mistral 7B v0.1 (issue 26): 7,241,732,096.
    QTest::newRow("mistral-7b-v0.1") << "mistral-7b-v0.1" << 7241732096.0 << 7241732096.0;
    // Mixtral 8x7B (Jiang et al. 2024, "46.7B total, 12.9B active"): 32 × (41,943,040 + 8·176,160,768
    //   + 32,768 + 8,192) + 262,148,096 = 46,702,792,704; active with 2 experts 12,879,925,248.
    QTest::newRow("mixtral-8x7b-v0.1") << "mixtral-8x7b-v0.1" << 46702792704.0 << 12879925248.0;
    // Phi-3 mini 4k ("3.8B"): 32 × (4·3072² + 3·3072·8192 + 2·3072) + 2 × 32064·3072 + 3072
    //   = 3,624,075,264 + 197,001,216 + 3,072 = 3,821,079,552.
    QTest::newRow("phi-3-mini-4k") << "phi-3-mini-4k" << 3821079552.0 << 3821079552.0;
    // Qwen2.5 7B ("7.61B"): 7,615,616,512 (q, k, v biases only).
    QTest::newRow("qwen2.5-7b") << "qwen2.5-7b" << 7615616512.0 << 7615616512.0;
    // Qwen1.5-MoE-A2.7B ("14.3B, 2.7B activated"): 24 × (4·2048² + 3·2048 + 60·3·2048·1408
    //   + 3·2048·5632 + 2048 (shared gate) + 60·2048 + 2·2048) + 2 × 151936·2048 + 2048 = 14,315,784,192;
    //   active: 24 × (16,783,360 + 4·8,650,752 + 34,605,056 + 122,880 + 4,096) + 622,331,904
    //   = 2,689,173,504.
    QTest::newRow("qwen1.5-moe-a2.7b") << "qwen1.5-moe-a2.7b" << 14315784192.0 << 2689173504.0;
    // Qwen3 8B ("8.2B; 6.95B non-embedding"): 36 × (2·4096² + 2·4096·1024 + 2·128 + 3·4096·12288
    //   + 2·4096) + 2 × 151936·4096 + 4096 = 6,946,071,552 + 1,244,659,712 + 4,096 = 8,190,735,360.
    QTest::newRow("qwen3-8b") << "qwen3-8b" << 8190735360.0 << 8190735360.0;
    // Qwen3 30B-A3B ("30.5B, 3.3B activated"): 30,532,122,624 and 3,353,032,704
    //   (tst_modern_architectures.cpp has the sum).
    QTest::newRow("qwen3-30b-a3b") << "qwen3-30b-a3b" << 30532122624.0 << 3353032704.0;
    // Gemma 7B ("8.54B"): 8,537,680,896; Gemma 2 9B ("9.24B"): 9,241,705,984 (tst_modern_architectures).
    QTest::newRow("gemma-7b") << "gemma-7b" << 8537680896.0 << 8537680896.0;
    QTest::newRow("gemma-2-9b") << "gemma-2-9b" << 9241705984.0 << 9241705984.0;
    // OLMo 2 7B 1124 ("7.3B"): 32 × (4·4096² + 2·4096 (QK-norm over 32·128 each) + 3·4096·11008
    //   + 2·4096) + 2 × 100352·4096 + 4096 = 6,476,529,664 + 822,083,584 + 4,096 = 7,298,617,344.
    QTest::newRow("olmo-2-7b") << "olmo-2-7b" << 7298617344.0 << 7298617344.0;
    // DeepSeek-V3 main model without its MTP module ("671B total, 37B activated"; the model card's
    //   685B adds 14B of MTP weights, num_nextn_predict_layers, which Napkin ignores):
    //   671,026,419,200 and 37,552,297,472 (tst_modern_architectures.cpp has the sum).
    QTest::newRow("deepseek-v3") << "deepseek-v3" << 671026419200.0 << 37552297472.0;
    // Issue 40 (tst_hf_config.cpp has each sum). Gemma 3 4B's language model (text_config with
    //   Gemma3TextConfig's defaults; the vision tower's 419,816,304 apart: 4,300,079,472, HF's "4.3B").
    QTest::newRow("gemma-3-4b-it") << "gemma-3-4b-it" << 3880263168.0 << 3880263168.0;
    // gpt-oss (OpenAI model card: 20.91B / 116.83B total; active 3.61B / 5.13B without the embedding table).
    QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << 20914757184.0 << 4187440704.0;
    QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 116829156672.0 << 5711982912.0;
    // Llama 4 Maverick's language model (Meta: "400B total, 17B active").
    QTest::newRow("llama-4-maverick-17b-128e")
        << "llama-4-maverick-17b-128e" << 400711848960.0 << 17184691200.0;
    // Kimi K2 (Moonshot: "1T total, 32B activated"), derived from the shapes.
    QTest::newRow("kimi-k2-instruct") << "kimi-k2-instruct" << 1026408232448.0 << 32861500928.0;
}

void TestModelZoo::exactCounts() {
    QFETCH(QString, id);
    QFETCH(double, total);
    QFETCH(double, active);
    const ParameterCount count = countParameters(zooModel(id.toUtf8().constData()));
    QCOMPARE(count.total, total);
    QCOMPARE(count.active, active);
    QCOMPARE(findZooModel(id.toStdString())->publishedParameters, total);
}

void TestModelZoo::kvBytesPerToken_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("bytes");
    // bf16. MHA/GQA/MQA: 2·L·g·d_h·2; MLA: L·(kv_lora_rank + qk_rope_head_dim)·2.
    QTest::newRow("gpt2 MHA 2·12·12·64·2") << "gpt2" << 36864.0;
    QTest::newRow("falcon-7b MQA 2·32·1·64·2") << "falcon-7b" << 8192.0;
    QTest::newRow("llama-2-7b MHA 2·32·32·128·2") << "llama-2-7b" << 524288.0;
    QTest::newRow("qwen2.5-7b GQA 2·28·4·128·2") << "qwen2.5-7b" << 57344.0;
    QTest::newRow("qwen3-30b-a3b GQA 2·48·4·128·2") << "qwen3-30b-a3b" << 98304.0;
    QTest::newRow("gemma-7b head_dim 256: 2·28·16·256·2") << "gemma-7b" << 458752.0;
    QTest::newRow("gemma-2-9b 2·42·8·256·2") << "gemma-2-9b" << 344064.0;
    QTest::newRow("deepseek-v3 MLA 61·(512 + 64)·2") << "deepseek-v3" << 70272.0;
    // Sinks add no cache: gpt-oss 2·24·8·64·2; Llama 4 2·48·8·128·2; Kimi K2's MLA 61·(512 + 64)·2.
    QTest::newRow("gpt-oss-20b 2·24·8·64·2") << "gpt-oss-20b" << 49152.0;
    QTest::newRow("llama-4-maverick 2·48·8·128·2") << "llama-4-maverick-17b-128e" << 196608.0;
    QTest::newRow("kimi-k2 MLA 61·(512 + 64)·2") << "kimi-k2-instruct" << 70272.0;
}

void TestModelZoo::kvBytesPerToken() {
    QFETCH(QString, id);
    QFETCH(double, bytes);
    QCOMPARE(infer(zooModel(id.toUtf8().constData()), 1000).kvCacheBytesPerToken.value, bytes);
}

void TestModelZoo::windowCapsPastTheWindow_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("context");
    QTest::addColumn<double>("bytes");
    // Mistral 7B v0.1 at 32,768: every layer keeps 4,096 tokens: 4096 × 131,072 = 536,870,912.
    QTest::newRow("mistral all windowed") << "mistral-7b-v0.1" << 32768.0 << 536870912.0;
    // Gemma 2 9B at 8,192: 21 global layers × 8192 + 21 windowed × 4096 tokens, 8,192 B per token per
    //   layer (2·8·256·2): (172,032 + 86,016) × 8,192 = 2,113,929,216.
    QTest::newRow("gemma-2 every 2nd global") << "gemma-2-9b" << 8192.0 << 2113929216.0;
    // Phi-3 mini 4k (sliding_window 2047, d_h = 3072/32 = 96) at 4,096: every layer keeps 2,047 tokens of
    //   2·32·96·2 = 12,288 B: 32 × 2047 × 12,288 = 804,913,152.
    QTest::newRow("phi-3 window 2047") << "phi-3-mini-4k" << 4096.0 << 804913152.0;
    // gpt-oss-20b at 8,192: 12 full layers × 8192 + 12 sliding × 128 tokens of 2·8·64·2 = 2,048 B:
    //   (98,304 + 1,536) × 2,048 = 204,472,320.
    QTest::newRow("gpt-oss sliding 128") << "gpt-oss-20b" << 8192.0 << 204472320.0;
    // Llama 4 Maverick at 16,384: 12 NoPE layers global × 16384 + 36 chunked layers × one 8,192 chunk, of
    //   2·8·128·2 = 4,096 B: (196,608 + 294,912) × 4,096 = 2,013,265,920.
    QTest::newRow("llama-4 chunks of 8192") << "llama-4-maverick-17b-128e" << 16384.0 << 2013265920.0;
}

void TestModelZoo::windowCapsPastTheWindow() {
    QFETCH(QString, id);
    QFETCH(double, context);
    QFETCH(double, bytes);
    const InferenceResult r = infer(zooModel(id.toUtf8().constData()), context);
    QCOMPARE(r.kvCacheBytes.value, bytes);
    QVERIFY(r.kvCacheBytes.value < context * r.kvCacheBytesPerToken.value);
}

// The weight format stores the layers' matmul weights; the rest (embeddings, norms, router) stays 16-bit.
// DeepSeek-V3: MLA per layer q_a d×1536 + q_b 1536×128·192 + kv_a d×576 + kv_b 512×128·256 + o 128·128×d
// = 187,105,280 in all 61 layers; the 58 MoE layers 256 routed and 1 shared expert of 3·d·2048 =
// 44,040,192 each; the 3 dense-first layers an MLP of 3·d·18432 = 396,361,728. Q = 61 × 187,105,280 +
// 58 × 257 × 44,040,192 + 3 × 396,361,728 = 669,065,609,216 (before, every layer counted 256 experts and
// none the shared expert or the dense MLP: 699,145,060,352, more than the model holds).
void TestModelZoo::quantizedWeightsAreTheLayersMatmuls() {
    const InferenceResult deepseek = infer(zooModel("deepseek-v3"), 4096);
    QCOMPARE(deepseek.quantizedParameters, 669065609216.0);
    QCOMPARE(deepseek.otherParameters, 671026419200.0 - 669065609216.0);
    // One decode step of one sequence reads what one token touches: the active parameters, less the
    // untied embedding's V − 1 rows not looked up. Before, the 3 dense layers' 248 idle experts (which do not
    // exist) were also subtracted, and the step read 19 GB instead of 73 GB.
    const ModelSpec v3 = zooModel("deepseek-v3");
    const double notLookedUp = (v3.vocab - 1) * v3.dModel;
    QCOMPARE(deepseek.decodeBytesPerToken.value - deepseek.kvCacheBytes.value,
             2 * (countParameters(v3).active - notLookedUp)); // 73,251,251,200 B in bf16
    for (const ZooModel& z : zooModels()) {
        const ModelSpec m = zooModel(std::string(z.id).c_str());
        const InferenceResult r = infer(m, std::min(m.seq, 2048.0));
        const double embeddings = m.vocab * m.dModel * (m.embeddings == EmbeddingTying::tied ? 1 : 2);
        QVERIFY2(r.otherParameters >= embeddings, std::string(z.id).c_str());
        // Besides the embeddings only norms, biases, routers and GPT-2's 1024 positions: under 1 %.
        QVERIFY2(r.otherParameters < embeddings + 0.01 * r.parameters, std::string(z.id).c_str());
    }
}

// The checkpoint's own format (quantization_config): what its weights take to serve.
void TestModelZoo::checkpointFormatWeights_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("quantized");
    QTest::addColumn<double>("bytes");
    // gpt-oss-20b, MXFP4 experts (0.5 + 1/32 B each) and the rest bf16: Q = 24·32·3·2880² = 19,110,297,600;
    //   Q·17/32 + (20,914,757,184 − Q)·2 = 13,761,264,768 B = 12.8 GiB, the model card's checkpoint size.
    QTest::newRow("gpt-oss-20b mxfp4") << "gpt-oss-20b"
                                       << "mxfp4" << 19110297600.0 << 13761264768.0;
    // gpt-oss-120b: Q = 36·128·3·2880² = 114,661,785,600; 65,248,815,744 B = 60.8 GiB (the card's 60.8 GiB).
    QTest::newRow("gpt-oss-120b mxfp4") << "gpt-oss-120b"
                                        << "mxfp4" << 114661785600.0 << 65248815744.0;
    // Kimi K2, fp8 with an fp32 scale per 128×128 block on every layer matrix: Q = 61 × 101,122,048 (MLA)
    //   + 60 × 385 × 44,040,192 + 3·7168·18432 = 1,023,893,241,856; Q·(1 + 4/16384) + 2,514,990,592 × 2
    //   = 1,029,173,196,976 B (half the 2,052,816,464,896 B of bf16).
    QTest::newRow("kimi-k2 fp8 128x128") << "kimi-k2-instruct"
                                         << "fp8-block128" << 1023893241856.0 << 1029173196976.0;
}

void TestModelZoo::checkpointFormatWeights() {
    QFETCH(QString, id);
    QFETCH(QString, format);
    QFETCH(double, quantized);
    QFETCH(double, bytes);
    const HfConfigResult config = zooModelConfig(*findZooModel(id.toStdString()));
    QVERIFY(config.ok() && config.config->checkpointFormat);
    const CheckpointFormat& f = *config.config->checkpointFormat;
    QCOMPARE(QString::fromUtf8(weightFormatName(f.weights)), format);
    InferenceInput in;
    in.model = config.config->model;
    in.context = 4096;
    in.weights = f.weights;
    in.groupSize = f.groupSize;
    in.expertsOnly = f.expertsOnly;
    in.gpus = 8;
    const InputError e = validateInference(in);
    QVERIFY2(e.ok(), e.message.c_str());
    const InferenceResult r = accountInference(in, *GpuCatalog::builtIn().find(in.gpu));
    QCOMPARE(r.quantizedParameters, quantized);
    QCOMPARE(r.weightsBytes.value, bytes);
}

QTEST_APPLESS_MAIN(TestModelZoo)
#include "tst_model_zoo.moc"
