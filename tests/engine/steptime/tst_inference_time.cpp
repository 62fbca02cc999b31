// SPDX-License-Identifier: GPL-3.0-or-later
// Serving's op list (engine/steptime/inference_ops.h) for mixtures of experts, multi-head latent attention
// and sliding windows: its FLOPs are the roofline accounting's (inference_accounting.h) where both count the
// same algorithm; the weights a decode step reads and the cache it reads are derived here by hand from each
// model's config.json; a window caps the cache read; a memory-bound decode step takes its bytes over the
// bandwidth.
#include "engine/steptime/inference_time.h"
#include "engine/steptime/published_profiles.h"

#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"

#include <QtTest>

using namespace napkin;

namespace {

ModelSpec model(const QString& id) {
    if (const ModelPreset* preset = findModelPreset(id.toStdString()))
        return preset->model;
    const ZooModel* zoo = findZooModel(id.toStdString()); // a shipped config.json (deepseek-v3, ...)
    if (!zoo)
        qFatal("unknown model %s", qPrintable(id));
    return zooModelConfig(*zoo).config->model;
}

InferenceInput serving(const QString& id, double batch, double context, double prompt, double gpus = 1,
                       WeightFormat weights = WeightFormat::bf16) {
    InferenceInput in;
    in.model = model(id);
    in.model.attentionImpl = AttentionImpl::flash;
    in.batch = batch;
    in.context = context;
    in.prompt = prompt;
    in.gpus = gpus;
    in.weights = weights;
    in.gpu = "H100-SXM";
    if (const InputError error = validateInference(in); !error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return in;
}

StepOpList ops(const InferenceInput& in, InferencePass pass) {
    StepOpList list = inferenceOps(in, pass);
    if (!list.whyNot.empty())
        qFatal("not modelled: %s", list.whyNot.c_str());
    return list;
}

double sum(const StepOpList& list, double StepOp::*field) {
    double total = 0;
    for (const StepOp& op : list.ops)
        total += op.*field * op.count;
    return total;
}

const GpuSpec& h100() {
    return *GpuCatalog::builtIn().find("H100-SXM");
}

HardwareProfile published() {
    return publishedProfile(h100()).profile.value_or(HardwareProfile{});
}

} // namespace

class TestInferenceTime : public QObject {
    Q_OBJECT
private slots:
    // Prefill's FLOPs are the roofline's B·(2·N_matmul·P + 2·a·(d_qk + d_v)·pairs) (the causal pairs, a
    // windowed layer's within W), decode's B·(2·N_matmul + 2·a·(d_qk + d_v)·Σ cached keys): the routed
    // experts' K of E, the router, the shared expert and the dense-first layers are all in N_matmul. Latent
    // attention's decode runs the absorbed form (inference_ops_latent_attention.cpp): its attention does
    // 2·a·S·(2·c + r) a token and layer where the roofline counts the non-absorbed 2·a·S·(d_qk + d_v), and
    // nothing else differs.
    void flopsAreTheAccountings_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("batch");
        QTest::addColumn<double>("context");
        QTest::addColumn<double>("prompt");
        QTest::addColumn<double>("window"); // 0: the model's own; > 0: on every other layer
        // Mixtral 8x7B: 8 experts of SwiGLU 14336, top-2; at B 1 a decode step routes to 2 of them.
        QTest::newRow("mixtral-8x7b B 1 S 4096 P 512") << "mixtral-8x7b" << 1.0 << 4096.0 << 512.0 << 0.0;
        QTest::newRow("mixtral-8x7b B 16 S 2048") << "mixtral-8x7b" << 16.0 << 2048.0 << 2048.0 << 0.0;
        // Qwen1.5-MoE-A2.7B: 60 experts of 1408 top-4, a shared expert of 5632 behind a d×1 sigmoid gate.
        QTest::newRow("qwen1.5-moe-a2.7b B 4 S 1024")
            << "qwen1.5-moe-a2.7b" << 4.0 << 1024.0 << 1024.0 << 0.0;
        // DeepSeek-V3: latent attention, 256 experts of 2048 top-8, one shared, the first 3 layers dense.
        QTest::newRow("deepseek-v3 B 1 S 4096 P 1024") << "deepseek-v3" << 1.0 << 4096.0 << 1024.0 << 0.0;
        QTest::newRow("deepseek-v3 B 64 S 2048 P 256") << "deepseek-v3" << 64.0 << 2048.0 << 256.0 << 0.0;
        // Mistral 7B v0.1: a 4096-token window on every layer, here over 8192 tokens.
        QTest::newRow("mistral-7b-v0.1 B 2 S 8192") << "mistral-7b-v0.1" << 2.0 << 8192.0 << 8192.0 << 0.0;
        QTest::newRow("mistral-7b-v0.1 B 1 S 2048 (inside the window)")
            << "mistral-7b-v0.1" << 1.0 << 2048.0 << 2048.0 << 0.0;
        // Gemma-2's pattern on Llama 3 8B: a 1024-token window on every other layer.
        QTest::newRow("llama3-8b, window 1024 every other layer, S 4096")
            << "llama3-8b" << 4.0 << 4096.0 << 4096.0 << 1024.0;
        QTest::newRow("llama3-8b B 8 S 2048 P 128") << "llama3-8b" << 8.0 << 2048.0 << 128.0 << 0.0;
    }
    void flopsAreTheAccountings() {
        QFETCH(QString, model);
        QFETCH(double, batch);
        QFETCH(double, context);
        QFETCH(double, prompt);
        QFETCH(double, window);
        InferenceInput in = serving(model, batch, context, prompt);
        if (window > 0) {
            in.model.slidingWindow = window;
            in.model.globalEvery = 2;
        }
        const InferenceResult r = accountInference(in, h100());
        QCOMPARE(sum(ops(in, InferencePass::prefill), &StepOp::flops), r.prefillFlops.value);
        const ModelSpec& m = in.model;
        double absorbed = 0;
        if (isLatentAttention(m))
            absorbed = 2 * batch * m.heads * m.layers * context *
                       (2 * m.kvLoraRank + m.qkRopeHeadDim - queryKeyHeadWidth(m) - valueHeadWidth(m));
        QCOMPARE(sum(ops(in, InferencePass::decode), &StepOp::flops), r.decodeStepFlops.value + absorbed);
    }

    // The weights one pass reads, in the serving format (GEMM weights only: norms and biases are not in the
    // list; the head, router and embeddings stay 16-bit), from each model's config.json.
    //   Mixtral 8x7B (d 4096, 32 layers, 32 heads of 128, 8 KV heads, 8 experts of 14336, top-2, V 32000,
    //   untied head): attention 2·4096² + 2·4096·1024 = 41,943,040 a layer; an expert 3·4096·14336 =
    //   176,160,768; the router 4096·8 = 32,768; the head 32000·4096 = 131,072,000.
    //   B 1 reads 2 experts: 2 B × (32 × (41,943,040 + 2 × 176,160,768 + 32,768) + 131,072,000)
    //   = 25,497,174,016 B. B 4 routes 8 rows, so all 8: 2 B × (32 × (41,943,040 + 8 × 176,160,768 + 32,768)
    //   + 131,072,000) = 93,142,908,928 B; a prefill of 512 tokens too. int4 (group 128: 0.5 + 2/128 B) on
    //   attention and experts, 16-bit router and head, at B 1: 32 × (41,943,040 + 352,321,536) × 33/64
    //   + 2 × (32 × 32,768 + 131,072,000) = 6,505,365,504 + 264,241,152 = 6,769,606,656 B.
    //   DeepSeek-V3 (d 7168, 61 layers, 128 heads, q_lora 1536, kv_lora 512, nope 128, rope 64, v 128; 256
    //   experts of 2048 top-8, one shared of 2048, the first 3 layers dense of 18432, V 129280): attention
    //   7168·1536 + 1536·128·192 + 7168·576 + 512·128·256 + 128·128·7168 = 187,105,280 a layer; an expert
    //   3·7168·2048 = 44,040,192; the router 7168·256 = 1,835,008; a dense MLP 3·7168·18432 = 396,361,728;
    //   the head 129280·7168 = 926,679,040. B 1 reads 8 routed experts and the shared one in 58 layers:
    //   61 × 187,105,280 + 58 × (9 × 44,040,192 + 1,835,008) + 3 × 396,361,728 + 926,679,040
    //   = 36,624,596,992 weights (DeepSeek's "37B activated"), × 2 B = 73,249,193,984 B.
    void weightsReadArePerRoutedExpert_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("weights");
        QTest::addColumn<double>("batch");
        QTest::addColumn<bool>("prefill");
        QTest::addColumn<double>("bytes");
        QTest::newRow("mixtral-8x7b decode B 1") << "mixtral-8x7b"
                                                 << "bf16" << 1.0 << false << 25497174016.0;
        QTest::newRow("mixtral-8x7b decode B 4") << "mixtral-8x7b"
                                                 << "bf16" << 4.0 << false << 93142908928.0;
        QTest::newRow("mixtral-8x7b prefill of 512") << "mixtral-8x7b"
                                                     << "bf16" << 1.0 << true << 93142908928.0;
        QTest::newRow("mixtral-8x7b int4 decode B 1") << "mixtral-8x7b"
                                                      << "int4" << 1.0 << false << 6769606656.0;
        QTest::newRow("deepseek-v3 decode B 1") << "deepseek-v3"
                                                << "bf16" << 1.0 << false << 73249193984.0;
    }
    void weightsReadArePerRoutedExpert() {
        QFETCH(QString, model);
        QFETCH(QString, weights);
        QFETCH(double, batch);
        QFETCH(bool, prefill);
        QFETCH(double, bytes);
        const InferenceInput in =
            serving(model, batch, 4096, 512, 1, *weightFormatFromName(weights.toStdString()));
        const StepOpList list = ops(in, prefill ? InferencePass::prefill : InferencePass::decode);
        QCOMPARE(sum(list, &StepOp::weightBytes), bytes);
    }

    // The cache a decode step reads grows by B·kv_per_token per cached token on each GPU: Mixtral's
    // 2·32·8·128 × 2 B = 131,072 B (split by heads over N GPUs); DeepSeek-V3's latent and RoPE key
    // 61·(512 + 64) × 2 B = 70,272 B, whole on every GPU of a tensor-parallel group; Mistral 7B's
    // 131,072 B up to its 4096-token window and nothing past it. Nothing else a flash decode step reads
    // depends on S, so the step's bytes differ by exactly that.
    void cacheReadIsCappedByTheWindow_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("gpus");
        QTest::addColumn<double>("batch");
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<double>("bytes");
        QTest::newRow("mixtral-8x7b B 2")
            << "mixtral-8x7b" << 1.0 << 2.0 << 1024.0 << 2048.0 << 2 * 1024 * 131072.0;
        QTest::newRow("mixtral-8x7b B 2 over 2 GPUs")
            << "mixtral-8x7b" << 2.0 << 2.0 << 1024.0 << 2048.0 << 1024 * 131072.0;
        QTest::newRow("deepseek-v3 B 1") << "deepseek-v3" << 1.0 << 1.0 << 1024.0 << 2048.0 << 1024 * 70272.0;
        QTest::newRow("deepseek-v3 B 1 over 8 GPUs")
            << "deepseek-v3" << 8.0 << 1.0 << 1024.0 << 2048.0 << 1024 * 70272.0;
        QTest::newRow("mistral-7b-v0.1 inside the window")
            << "mistral-7b-v0.1" << 1.0 << 1.0 << 2048.0 << 4096.0 << 2048 * 131072.0;
        QTest::newRow("mistral-7b-v0.1 past the window")
            << "mistral-7b-v0.1" << 1.0 << 1.0 << 4096.0 << 32768.0 << 0.0;
    }
    void cacheReadIsCappedByTheWindow() {
        QFETCH(QString, model);
        QFETCH(double, gpus);
        QFETCH(double, batch);
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(double, bytes);
        const double shorter =
            sum(ops(serving(model, batch, from, 1, gpus), InferencePass::decode), &StepOp::bytes);
        const double longer =
            sum(ops(serving(model, batch, to, 1, gpus), InferencePass::decode), &StepOp::bytes);
        QCOMPARE(longer - shorter, bytes);
    }

    // A memory-bound decode step takes its bytes over the bandwidth: Mixtral 8x7B at B 1 with 4096 tokens
    // cached reads 25,497,174,016 B of weights (above) and 4096 × 131,072 = 536,870,912 B of cache, over the
    // H100 SXM's 3.35e12 B/s (the published profile's bandwidth) = 7.771 ms; its activations add well under
    // 1 %. The list says how it routes and that nothing is refused.
    void decodeIsItsBytesOverTheBandwidth() {
        const InferenceTimes t =
            predictInferenceTime(serving("mixtral-8x7b", 1, 4096, 4096), h100(), published());
        QVERIFY2(t.decode.predicted, t.decode.whyNot.c_str());
        QVERIFY2(t.prefill.predicted, t.prefill.whyNot.c_str());
        const double byHand = (25497174016.0 + 536870912.0) / 3.35e12;
        QVERIFY2(t.decode.seconds >= byHand && t.decode.seconds < 1.01 * byHand,
                 std::to_string(t.decode.seconds).c_str());
        bool routing = false;
        for (const std::string& line : t.decode.notModelled)
            routing = routing || line.find("routing as balanced") != std::string::npos;
        QVERIFY(routing);
    }

    // Every model the training step times is served too: DeepSeek-V3 over 8 GPUs and Mistral's window are
    // predicted, each pass never below the roofline's lower bound (the datasheet's peak and bandwidth, the
    // whole pass as one op).
    void servedNotBelowTheRoofline_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("batch");
        QTest::addColumn<double>("context");
        QTest::addColumn<double>("prompt");
        QTest::addColumn<double>("gpus");
        QTest::newRow("mixtral-8x7b B 32 over 2 GPUs") << "mixtral-8x7b" << 32.0 << 4096.0 << 1024.0 << 2.0;
        QTest::newRow("deepseek-v3 B 16 over 8 GPUs") << "deepseek-v3" << 16.0 << 8192.0 << 2048.0 << 8.0;
        QTest::newRow("mistral-7b-v0.1 B 8 S 16384") << "mistral-7b-v0.1" << 8.0 << 16384.0 << 16384.0 << 1.0;
        QTest::newRow("qwen1.5-moe-a2.7b B 64") << "qwen1.5-moe-a2.7b" << 64.0 << 2048.0 << 512.0 << 1.0;
    }
    void servedNotBelowTheRoofline() {
        QFETCH(QString, model);
        QFETCH(double, batch);
        QFETCH(double, context);
        QFETCH(double, prompt);
        QFETCH(double, gpus);
        const InferenceInput in = serving(model, batch, context, prompt, gpus);
        const InferenceResult r = accountInference(in, h100());
        const InferenceTimes t = predictInferenceTime(in, h100(), published());
        QVERIFY2(t.prefill.predicted, t.prefill.whyNot.c_str());
        QVERIFY2(t.decode.predicted, t.decode.whyNot.c_str());
        qInfo("%s: prefill %.4g s (roofline %.4g), decode %.4g s (roofline %.4g)", QTest::currentDataTag(),
              t.prefill.seconds, r.prefillSeconds.value, t.decode.seconds, r.decodeSecondsPerToken.value);
        QVERIFY(t.prefill.seconds >= r.prefillSeconds.value);
        QVERIFY(t.decode.seconds >= r.decodeSecondsPerToken.value);
    }
};

QTEST_APPLESS_MAIN(TestInferenceTime)
#include "tst_inference_time.moc"
