// SPDX-License-Identifier: GPL-3.0-or-later
// Today's families, built knob by knob (head_dim, per-projection biases, sandwich norms, QK-norm,
// GeGLU, sliding windows, MLA, shared experts, dense-first layers), against parameter counts derived by
// hand from each published config.json; the KV cache by attention kind; windowed caches capped at W.
#include "engine/inference/inference_accounting.h"
#include "engine/models/model_presets.h"
#include "engine/models/parameter_count.h"
#include "engine/numerics/quantity_format.h"

#include <QtTest>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::ModelSpec)

namespace {

ModelSpec llamaLike(double d, double layers, double heads, double kvHeads, double ffn, double vocab) {
    ModelSpec m = withArchitectureFamily(ModelSpec{}, ArchitectureFamily::llama);
    m.kind = ModelKind::transformer;
    m.dModel = d;
    m.layers = layers;
    m.heads = heads;
    m.kvHeads = kvHeads;
    m.ffnDim = ffn;
    m.vocab = vocab;
    m.seq = 4096;
    return m;
}

ModelSpec mistral7b() { // Mistral-7B-v0.1 config.json
    ModelSpec m = llamaLike(4096, 32, 32, 8, 14336, 32000);
    m.slidingWindow = 4096;
    return m;
}

ModelSpec qwen25_7b() { // Qwen2.5-7B config.json: bias on q, k, v only
    ModelSpec m = llamaLike(3584, 28, 28, 4, 18944, 152064);
    m.qkvBias = true;
    return m;
}

ModelSpec gemma7b() { // gemma-7b config.json: head_dim 256, GeGLU, tied
    ModelSpec m = llamaLike(3072, 28, 16, 16, 24576, 256000);
    m.headDim = 256;
    m.mlp = MlpKind::geglu;
    m.embeddings = EmbeddingTying::tied;
    return m;
}

ModelSpec gemma2_9b() { // gemma-2-9b config.json: sandwich norms, every 2nd layer global, window 4096
    ModelSpec m = gemma7b();
    m.dModel = 3584;
    m.layers = 42;
    m.kvHeads = 8;
    m.ffnDim = 14336;
    m.normPlacement = NormPlacement::sandwich;
    m.slidingWindow = 4096;
    m.globalEvery = 2;
    return m;
}

ModelSpec deepseekV3() { // DeepSeek-V3 config.json: MLA, 256 routed + 1 shared, 3 dense layers
    ModelSpec m = llamaLike(7168, 61, 128, 128, 18432, 129280);
    m.qLoraRank = 1536;
    m.kvLoraRank = 512;
    m.qkNopeHeadDim = 128;
    m.qkRopeHeadDim = 64;
    m.vHeadDim = 128;
    m.experts = 256;
    m.topK = 8;
    m.expertFfnDim = 2048;
    m.sharedFfnDim = 2048;
    m.denseLayers = 3;
    m.routerBias = true;
    return m;
}

ModelSpec qwen3_30b_a3b() { // Qwen3-30B-A3B config.json: head_dim 128 on d 2048, QK-norm per head
    ModelSpec m = llamaLike(2048, 48, 32, 4, 6144, 151936);
    m.headDim = 128;
    m.qkNorm = QkNorm::head;
    m.experts = 128;
    m.topK = 8;
    m.expertFfnDim = 768;
    return m;
}

ModelSpec falcon7b() { // falcon-7b config.json: MQA, one LayerNorm (with bias) per layer, no linear bias
    ModelSpec m = withArchitectureFamily(ModelSpec{}, ArchitectureFamily::gpt2);
    m.kind = ModelKind::transformer;
    m.dModel = 4544;
    m.layers = 32;
    m.heads = 71;
    m.kvHeads = 1;
    m.vocab = 65024;
    m.seq = 2048;
    m.position = PositionKind::rope;
    m.bias = false;
    m.normBias = true;
    m.normPlacement = NormPlacement::parallel;
    return m;
}

} // namespace

class TestModernArchitectures : public QObject {
    Q_OBJECT
private slots:
    void exactParameterCounts_data();
    void exactParameterCounts();
    void kvCachePerToken_data();
    void kvCachePerToken();
    void slidingWindowCapsTheCache();
    void defaultsAreNotModern();
    void validation();
};

void TestModernArchitectures::exactParameterCounts_data() {
    QTest::addColumn<ModelSpec>("model");
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("active");
    // Mistral-7B-v0.1 (issue 26; HF model card "7.24B"): 32 × (2·4096² + 2·4096·1024 + 3·4096·14336
    //   + 2·4096) + 2 × 32000·4096 + 4096 = 6,979,584,000 + 262,144,000 + 4,096 = 7,241,732,096.
    QTest::newRow("Mistral 7B v0.1 7,241,732,096") << mistral7b() << 7241732096.0 << 7241732096.0;
    // Llama-2-7B (issue 26): 32 × (4·4096² + 3·4096·11008 + 2·4096) + 2 × 32000·4096 + 4096 = 6,738,415,616.
    QTest::newRow("Llama 2 7B 6,738,415,616")
        << llamaLike(4096, 32, 32, 32, 11008, 32000) << 6738415616.0 << 6738415616.0;
    // Qwen2.5-7B config.json (model card "7.61B"): 28 × (2·3584² + 2·3584·512 + (3584 + 2·512) bias
    //   + 3·3584·18944 + 2·3584) + 2 × 152064·3584 + 3584 = 6,525,618,176 + 1,089,994,752 + 3,584
    //   = 7,615,616,512.
    QTest::newRow("Qwen2.5 7B 7,615,616,512") << qwen25_7b() << 7615616512.0 << 7615616512.0;
    // gemma-7b config.json ("8.54B"): 28 × (4·3072·4096 + 3·3072·24576 + 2·3072) + 256000·3072 (tied)
    //   + 3072 = 7,751,245,824 + 786,432,000 + 3,072 = 8,537,680,896.
    QTest::newRow("Gemma 7B 8,537,680,896") << gemma7b() << 8537680896.0 << 8537680896.0;
    // gemma-2-9b config.json ("9.24B"): 42 × (2·3584·4096 + 2·3584·2048 + 3·3584·14336 + 4·3584)
    //   + 256000·3584 + 3584 = 8,324,198,400 + 917,504,000 + 3,584 = 9,241,705,984.
    QTest::newRow("Gemma 2 9B 9,241,705,984") << gemma2_9b() << 9241705984.0 << 9241705984.0;
    // DeepSeek-V3 config.json, the main model without the MTP module (the model card: "685B ... includes
    // 671B of the Main Model weights and 14B of the Multi-Token Prediction (MTP) Module"; Napkin counts
    // num_nextn_predict_layers as ignored). Attention per layer: q_a 7168·1536 + 1536 + q_b 1536·128·192
    //   + kv_a 7168·576 + 512 + kv_b 512·128·256 + o 128·128·7168 = 187,107,328; norms 2·7168.
    //   3 dense layers × (187,107,328 + 3·7168·18432 + 14,336) = 1,750,450,176;
    //   58 MoE layers × (187,107,328 + 256·3·7168·2048 + 3·7168·2048 + 256·7168 + 256 + 14,336)
    //   = 58 × 11,507,286,272 = 667,422,603,776; 2 × 129280·7168 + 7168 = 1,853,365,248.
    //   Total 671,026,419,200. Active ("37B activated"): 58 × (187,107,328 + 9·44,040,192 + 1,835,008
    //   + 256 + 14,336) + 1,750,450,176 + 1,853,365,248 = 37,552,297,472.
    QTest::newRow("DeepSeek-V3 671,026,419,200 / 37,552,297,472")
        << deepseekV3() << 671026419200.0 << 37552297472.0;
    // Qwen3-30B-A3B config.json (model card "30.5B, 3.3B activated"): 48 × (2·2048·4096 + 2·2048·512
    //   + 2·128 + 128·3·2048·768 + 128·2048 + 2·2048) + 2 × 151936·2048 + 2048 = 30,532,122,624;
    //   active: 48 × (18,874,624 + 8·4,718,592 + 262,144 + 4,096) + 622,331,904 = 3,353,032,704.
    QTest::newRow("Qwen3 30B-A3B 30,532,122,624 / 3,353,032,704")
        << qwen3_30b_a3b() << 30532122624.0 << 3353032704.0;
    // falcon-7b config.json ("7B"): 32 × (4544·(4544 + 2·64) + 4544² + 2·4544·18176 + 2·4544)
    //   + 65024·4544 (tied) + 2·4544 = 6,626,242,560 + 295,469,056 + 9,088 = 6,921,720,704.
    QTest::newRow("Falcon 7B 6,921,720,704") << falcon7b() << 6921720704.0 << 6921720704.0;
}

void TestModernArchitectures::exactParameterCounts() {
    QFETCH(ModelSpec, model);
    QFETCH(double, total);
    QFETCH(double, active);
    QVERIFY2(validateArchitecture(model).ok(), validateArchitecture(model).message.c_str());
    const ParameterCount count = countParameters(model);
    QCOMPARE(count.total, total);
    QCOMPARE(count.active, active);
    QVERIFY2(count.formula.find(formatExact(total)) != std::string::npos, count.formula.c_str());
    double components = 0;
    for (const NamedCount& c : count.components)
        components += c.count;
    QCOMPARE(components, total);
}

void TestModernArchitectures::kvCachePerToken_data() {
    QTest::addColumn<ModelSpec>("model");
    QTest::addColumn<double>("bytes");
    // bf16 (2 bytes). GQA: 2·L·g·d_h·2. Mistral 7B: 2 × 32 × 8 × 128 × 2 = 131,072.
    QTest::newRow("Mistral 7B GQA 131,072") << mistral7b() << 131072.0;
    // Gemma 7B, d_h = 256 (not d/a = 192): 2 × 28 × 16 × 256 × 2 = 458,752.
    QTest::newRow("Gemma 7B head_dim 458,752") << gemma7b() << 458752.0;
    // DeepSeek-V3 MLA: L·(kv_lora_rank + qk_rope_head_dim)·2 = 61 × 576 × 2 = 70,272.
    QTest::newRow("DeepSeek-V3 MLA 70,272") << deepseekV3() << 70272.0;
    // Falcon 7B MQA: 2 × 32 × 1 × 64 × 2 = 8,192.
    QTest::newRow("Falcon 7B MQA 8,192") << falcon7b() << 8192.0;
}

void TestModernArchitectures::kvCachePerToken() {
    QFETCH(ModelSpec, model);
    QFETCH(double, bytes);
    InferenceInput in;
    in.model = model;
    in.context = 1024;
    in.gpus = 1;
    const InputError error = validateInference(in);
    QVERIFY2(error.ok(), (error.field + ": " + error.message).c_str());
    const InferenceResult r = accountInference(in, *GpuCatalog::builtIn().find(in.gpu));
    QCOMPARE(r.kvCacheBytesPerToken.value, bytes);
    QCOMPARE(r.kvCacheBytes.value, 1024 * bytes); // below every window: no cap
}

void TestModernArchitectures::slidingWindowCapsTheCache() {
    // Mistral 7B v0.1 at 32k: every layer keeps a 4,096-token rolling buffer, 4096 × 131,072 bytes.
    InferenceInput in;
    in.model = mistral7b();
    in.model.seq = 32768;
    in.context = 32768;
    QVERIFY(validateInference(in).ok());
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
    QCOMPARE(accountInference(in, gpu).kvCacheBytes.value, 4096 * 131072.0);
    // Gemma 2 9B at 8192 with window 4096: 21 global layers keep 8192 tokens, 21 windowed 4096;
    // per token per layer 2 × 8 × 256 × 2 = 8,192 B: (21 × 8192 + 21 × 4096) × 8192 = 2,113,929,216.
    in.model = gemma2_9b();
    in.model.seq = 8192;
    in.context = 8192;
    QVERIFY(validateInference(in).ok());
    QCOMPARE(accountInference(in, gpu).kvCacheBytes.value, 2113929216.0);
    // Decode reads the capped cache: the decode bytes grow by fewer than the full cache.
    QVERIFY(accountInference(in, gpu).decodeBytesPerToken.value <
            accountInference(in, gpu).weightsBytes.value + 42 * 8192 * 8192.0);
}

void TestModernArchitectures::defaultsAreNotModern() {
    for (const ModelPreset& p : modelPresets())
        QVERIFY2(!hasModernArchitecture(p.model), std::string(p.id).c_str());
}

void TestModernArchitectures::validation() {
    ModelSpec m = deepseekV3();
    m.vHeadDim = 0;
    QCOMPARE(QString::fromStdString(validateArchitecture(m).field), QStringLiteral("v-head-dim"));
    m = gemma2_9b();
    m.windowedLayers = {true, false};
    QCOMPARE(QString::fromStdString(validateArchitecture(m).field), QStringLiteral("windowed-layers"));
    m = deepseekV3();
    m.denseLayers = 62;
    QCOMPARE(QString::fromStdString(validateArchitecture(m).field), QStringLiteral("dense-layers"));
}

QTEST_APPLESS_MAIN(TestModernArchitectures)
#include "tst_modern_architectures.moc"
