// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a Hugging Face config.json: what is refused (truncated, wrong types, unknown model_type, a
// tokenizer config, an oversized or non-regular file, deep nesting), with one line naming the file and
// the key; the keys used and ignored; gemma3's nested text_config; issue 40: absent keys taking the
// configuration class's default, aliases (kimi_k2), gpt_oss and llama4 counted exactly, the vision tower
// apart, and the checkpoint's number format from quantization_config.
#include "engine/models/hf_config.h"
#include "engine/models/model_zoo.h"
#include "engine/models/parameter_count.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace napkin;

class TestHfConfig : public QObject {
    Q_OBJECT
private slots:
    void refused_data();
    void refused();
    void oversizedFileRefusedBeforeReading();
    void directoryRefused();
    void keysUsedAndIgnored();
    void gemma3NestsTextConfig();
    void classDefaultsFillAbsentKeys_data();
    void classDefaultsFillAbsentKeys();
    void gemma3VisionTowerCountedApart();
    void aliasesReadAsTheirFamily();
    void unknownTypeNamesTheNearestFamily();
    void newFamiliesExact_data();
    void newFamiliesExact();
    void gptOssLayersAndSinks();
    void llama4InterleavedAndChunked();
    void checkpointFormat_data();
    void checkpointFormat();
};

namespace {
const char* kLlama = R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
  "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32000, "max_position_embeddings": 4096,
  "rope_theta": 10000.0, "bos_token_id": 1})";
}

void TestHfConfig::refused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message"); // a piece of the one-line error
    QTest::newRow("truncated") << R"({"model_type": "llama", "hidden_size": 40)"
                               << "not valid JSON";
    QTest::newRow("wrong type") << QString(kLlama).replace("4096,", "\"4096\",") << "hidden_size: expected";
    QTest::newRow("fractional") << QString(kLlama).replace("11008", "11008.5")
                                << "intermediate_size: expected a whole number";
    // A key with no default in its configuration class (Falcon: Napkin keeps no table for it).
    QTest::newRow("missing key") << R"({"model_type": "falcon", "hidden_size": 4544, "num_hidden_layers": 32,
                                        "num_attention_heads": 71})"
                                 << "vocab_size: required, missing";
    QTest::newRow("unknown model_type names the nearest family")
        << QString(kLlama).replace("llama", "olmo3") << "nearest: olmo2";
    QTest::newRow("quantization_config of the wrong type")
        << QString(kLlama).replace("\"bos_token_id\": 1", "\"quantization_config\": 7")
        << "quantization_config: expected an object";
    QTest::newRow("fp8 block size of the wrong type")
        << QString(kLlama).replace(
               "\"bos_token_id\": 1",
               "\"quantization_config\": {\"quant_method\": \"fp8\", \"weight_block_size\": \"128\"}")
        << "quantization_config.weight_block_size: expected two whole numbers";
    QTest::newRow("moe_layers past the last layer")
        << R"({"model_type": "llama4_text", "num_hidden_layers": 4, "moe_layers": [1, 9]})"
        << "moe_layers: layer 9";
    QTest::newRow("unknown model_type")
        << QString(kLlama).replace("llama", "bert") << "model_type: 'bert' is not supported";
    QTest::newRow("tokenizer_config.json")
        << R"({"add_bos_token": true, "model_max_length": 4096, "tokenizer_class": "LlamaTokenizer"})"
        << "model_type: missing";
    QTest::newRow("not an object") << "[1, 2, 3]"
                                   << "expected a JSON object";
    QTest::newRow("deep nesting") << QString("[").repeated(100000) + QString("]").repeated(100000)
                                  << "nested deeper than 16";
    // Quoted in one short line, whatever the file holds (issue 29: a message never spans lines).
    QTest::newRow("model_type with a newline")
        << QString(kLlama).replace("llama", "lla\\nma") << "model_type: 'lla?ma' is not supported";
    QTest::newRow("model_type 100 KB long") << QString(kLlama).replace("llama", QString(100000, 'x'))
                                            << "model_type: '" + QString(64, 'x') + "…' is not supported";
    QTest::newRow("model_type a number") << R"({"model_type": 7})"
                                         << "model_type: expected a string";
    QTest::newRow("invalid model") << QString(kLlama).replace(
                                          "\"num_hidden_layers\": 32",
                                          "\"num_hidden_layers\": 32, \"num_key_value_heads\": 5")
                                   << "kv-heads";
}

void TestHfConfig::refused() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    const HfConfigResult r = parseHfConfig(text.toStdString(), "config.json");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.rfind("config.json: ", 0) == 0, r.error.c_str());
    QVERIFY2(QString::fromStdString(r.error).contains(message), r.error.c_str());
    QVERIFY(r.error.find('\n') == std::string::npos);
}

void TestHfConfig::oversizedFileRefusedBeforeReading() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("config.json").toStdString();
    { std::ofstream(path) << kLlama; }
    std::filesystem::resize_file(path, 100 * 1024 * 1024); // sparse: 100 MB without writing them
    const HfConfigResult r = readHfConfigFile(path);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("104857600 bytes") != std::string::npos, r.error.c_str());
}

void TestHfConfig::directoryRefused() {
    QTemporaryDir dir;
    const HfConfigResult r = readHfConfigFile(dir.path().toStdString());
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("not a regular file") != std::string::npos, r.error.c_str());
    QVERIFY(readHfConfigFile(dir.filePath("absent.json").toStdString()).error.find("no such file") !=
            std::string::npos);
}

void TestHfConfig::keysUsedAndIgnored() {
    const HfConfigResult r = parseHfConfig(kLlama, "config.json");
    QVERIFY2(r.ok(), r.error.c_str());
    const std::vector<std::string>& used = r.config->keysUsed;
    QVERIFY(std::find(used.begin(), used.end(), "hidden_size") != used.end());
    QVERIFY(std::find(used.begin(), used.end(), "model_type") != used.end());
    const std::vector<std::string> ignored{"bos_token_id", "rope_theta"};
    QCOMPARE(r.config->keysIgnored, ignored);
    QCOMPARE(countParameters(r.config->model).total, 6738415616.0); // Llama 2 7B
}

void TestHfConfig::gemma3NestsTextConfig() {
    // gemma-3-4b-it's config.json, text part: d 2560, 34 layers, 8 heads of 256, 4 KV heads, f 10240,
    // V 262208, window 1024 with every 6th layer global, QK-norm per head, sandwich norms, tied.
    const char* text = R"({"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
      "text_config": {"model_type": "gemma3_text", "hidden_size": 2560, "intermediate_size": 10240,
        "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "num_hidden_layers": 34,
        "vocab_size": 262208, "max_position_embeddings": 131072, "sliding_window": 1024,
        "sliding_window_pattern": 6, "hidden_activation": "gelu_pytorch_tanh"},
      "vision_config": {"hidden_size": 1152}})";
    const HfConfigResult r = parseHfConfig(text, "config.json");
    QVERIFY2(r.ok(), r.error.c_str());
    const ModelSpec& m = r.config->model;
    QCOMPARE(m.headDim, 256.0);
    QCOMPARE(m.slidingWindow, 1024.0);
    QCOMPARE(windowedLayerCount(m), 34.0 - 5.0); // layers 6, 12, ..., 30 global
    QCOMPARE(m.qkNorm, QkNorm::head);
    QCOMPARE(m.normPlacement, NormPlacement::sandwich);
    const auto& used = r.config->keysUsed;
    QVERIFY(std::find(used.begin(), used.end(), "text_config.hidden_size") != used.end());
    const auto& ignored = r.config->keysIgnored;
    QVERIFY(std::find(ignored.begin(), ignored.end(), "vision_config") != ignored.end());
    // 34 × (2·2560·2048 + 2·2560·1024 + 2·256 + 3·2560·10240 + 4·2560) + 262208·2560 + 2560:
    //   per layer 10,485,760 + 5,242,880 + 512 + 78,643,200 + 10,240 = 94,382,592; × 34 = 3,209,008,128;
    //   + 671,252,480 + 2,560 = 3,880,263,168 (the language model of Gemma 3 4B; the vision tower apart).
    QCOMPARE(countParameters(m).total, 3880263168.0);
}

namespace {

HfConfig read(const std::string& text) {
    const HfConfigResult r = parseHfConfig(text, "config.json");
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return *r.config;
}

// A shipped config.json (resources/models/), as compiled into the model zoo.
std::string shipped(const char* id) {
    const ZooModel* zoo = findZooModel(id);
    if (!zoo)
        qFatal("no zoo model %s", id);
    return std::string(zoo->configJson);
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

// gpt-oss-120b's config.json as published (huggingface.co/openai/gpt-oss-120b/raw/main/config.json, quoted
// key for key in a vendored test of it); gpt-oss-20b's differs in num_hidden_layers 24, num_local_experts 32
// and layer_types 12 × [sliding, full].
const char* kGptOss120b = R"({"architectures": ["GptOssForCausalLM"], "attention_bias": true,
  "attention_dropout": 0.0, "eos_token_id": 200002, "experts_per_token": 4, "head_dim": 64, "hidden_act": "silu",
  "hidden_size": 2880, "initial_context_length": 4096, "initializer_range": 0.02, "intermediate_size": 2880,
  "max_position_embeddings": 131072, "model_type": "gpt_oss", "num_attention_heads": 64, "num_experts_per_tok": 4,
  "num_hidden_layers": 36, "num_key_value_heads": 8, "num_local_experts": 128, "output_router_logits": false,
  "pad_token_id": 199999, "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn",
  "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"}, "rms_norm_eps": 1e-05,
  "rope_theta": 150000, "router_aux_loss_coef": 0.9, "sliding_window": 128, "swiglu_limit": 7.0,
  "tie_word_embeddings": false, "use_cache": true, "vocab_size": 201088})";

} // namespace

void TestHfConfig::classDefaultsFillAbsentKeys_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("defaulted");
    QTest::addColumn<double>("total");
    // LlamaConfig: vocab_size 32000 (transformers models/llama/configuration_llama.py): Llama 2 7B's count.
    QTest::newRow("llama vocab_size")
        << QString(kLlama).replace("\"vocab_size\": 32000,", "") << "vocab_size" << 6738415616.0;
    // Gemma3TextConfig (v4.50): 8 heads, 4 KV heads, head_dim 256, vocab 262208: gemma-3-4b-it's text_config
    // as Google published it names only hidden_size, intermediate_size, num_hidden_layers and sliding_window.
    QTest::newRow("gemma-3-4b-it") << QString::fromStdString(shipped("gemma-3-4b-it"))
                                   << "text_config.num_attention_heads" << 3880263168.0;
    // gemma-3-12b-it's text_config (hidden 3840, f 15360, 16 heads, 8 KV heads, 48 layers, window 1024):
    //   48 × (2·3840·4096 + 2·3840·2048 + 2·256 + 3·3840·15360 + 4·3840) + 262208·3840 + 3840 =
    //   11,766,034,176.
    QTest::newRow("gemma-3-12b-it")
        << R"({"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
              "text_config": {"hidden_size": 3840, "intermediate_size": 15360, "model_type": "gemma3_text",
              "num_attention_heads": 16, "num_hidden_layers": 48, "num_key_value_heads": 8,
              "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024}})"
        << "text_config.vocab_size" << 11766034176.0;
}

void TestHfConfig::classDefaultsFillAbsentKeys() {
    QFETCH(QString, text);
    QFETCH(QString, defaulted);
    QFETCH(double, total);
    const HfConfig c = read(text.toStdString());
    QVERIFY2(contains(c.keysDefaulted, defaulted.toStdString()), defaulted.toUtf8().constData());
    QCOMPARE(countParameters(c.model).total, total);
    QVERIFY(!c.notes.empty());
}

void TestHfConfig::gemma3VisionTowerCountedApart() {
    // SigLIP (d 1152, f 4304, 27 layers, 896/14 = 64² positions, no pooling head) and the projector:
    //   27 × (4·(1152² + 1152) + 4·1152 + 2·1152·4304 + 4304 + 1152) + 3·14²·1152 + 1152 + 4096·1152 + 2·1152
    //   = 416,866,032; projector 1152·2560 + 1152 = 2,950,272. With the language model's 3,880,263,168:
    //   4,300,079,472, Hugging Face's "4.3B params" for google/gemma-3-4b-it (exact sum of the shapes).
    const HfConfig c = read(shipped("gemma-3-4b-it"));
    QVERIFY(c.visionParameters.has_value());
    QCOMPARE(*c.visionParameters, 416866032.0 + 2950272.0);
    QCOMPARE(countParameters(c.model).total + *c.visionParameters, 4300079472.0);
    // gemma-3-27b-it (text: d 5376, f 21504, 32 heads of 128, 16 KV heads, 62 layers): 27,009,346,304 and
    //   the tower with a 5376-wide projector 421,529,136: 27,432,406,640, the checkpoint's "27.4B".
    const HfConfig big =
        read(R"({"model_type": "gemma3", "text_config": {"head_dim": 128, "hidden_size": 5376,
        "intermediate_size": 21504, "num_attention_heads": 32, "num_hidden_layers": 62, "num_key_value_heads": 16,
        "query_pre_attn_scalar": 168, "sliding_window": 1024, "sliding_window_pattern": 6},
        "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304,
        "num_attention_heads": 16, "num_hidden_layers": 27, "patch_size": 14, "vision_use_head": false}})");
    QCOMPARE(countParameters(big.model).total, 27009346304.0);
    QCOMPARE(countParameters(big.model).total + *big.visionParameters, 27432406640.0);
}

void TestHfConfig::aliasesReadAsTheirFamily() {
    const HfConfig kimi = read(shipped("kimi-k2-instruct"));
    QCOMPARE(kimi.family, std::string("deepseek_v3"));
    QCOMPARE(kimi.modelType, std::string("kimi_k2"));
    QVERIFY(kimi.model.routerBias);
    // A model_type Napkin does not know whose architectures names a class it reads.
    const HfConfig renamed =
        read(QString(kLlama)
                 .replace("\"model_type\": \"llama\"",
                          "\"model_type\": \"my_llama\", \"architectures\": [\"LlamaForCausalLM\"]")
                 .toStdString());
    QCOMPARE(renamed.family, std::string("llama"));
    QCOMPARE(countParameters(renamed.model).total, 6738415616.0);
    QVERIFY(QString::fromStdString(renamed.notes.front()).contains("LlamaForCausalLM"));
}

void TestHfConfig::unknownTypeNamesTheNearestFamily() {
    const HfConfigResult r = parseHfConfig(R"({"model_type": "bert"})", "config.json");
    QVERIFY(!r.ok());
    for (const char* family : {"llama", "gemma3", "deepseek_v3", "gpt_oss", "llama4"})
        QVERIFY2(r.error.find(family) != std::string::npos, family);
    QVERIFY(r.error.find("nearest: ") != std::string::npos);
}

void TestHfConfig::newFamiliesExact_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("active");
    // Derived from the tensor shapes of modeling_gpt_oss.py; OpenAI's gpt-oss model card (Aug 2025, table 1)
    // rounds them: 116.83B and 20.91B total, 5.13B and 3.61B active (the card's active leaves out the
    // embedding table: 5,711,982,912 − 201088·2880 = 5,132,849,472). Per layer: q 2880·4096 + 4096, k and
    // v 2880·512 + 512 each, o 4096·2880 + 2880, sinks 64, E experts of 3·2880·2880 + 2·2880 + 2880,
    // router 2880·E + E, norms 2·2880; untied 201088·2880 twice and a final norm.
    QTest::newRow("gpt-oss-120b") << QString(kGptOss120b) << 116829156672.0 << 5711982912.0;
    QTest::newRow("gpt-oss-20b") << QString::fromStdString(shipped("gpt-oss-20b")) << 20914757184.0
                                 << 4187440704.0;
    // Llama 4 Maverick's config.json (as vendored in NVIDIA TensorRT-LLM's tests with 2 layers; 48 here):
    //   24 MoE layers (1, 3, ..., 47) of 2·5120·5120 + 2·5120·1024 + 128·3·5120·8192 + 3·5120·8192
    //   + 5120·128 + 2·5120, 24 dense of the same attention + 3·5120·16384 + 2·5120, 2·202048·5120 + 5120
    //   = 400,711,848,960; active (1 expert + the shared one) 17,184,691,200. Meta: "17B active, 400B total".
    QTest::newRow("llama-4-maverick")
        << QString::fromStdString(shipped("llama-4-maverick-17b-128e")) << 400711848960.0 << 17184691200.0;
    // Llama 4 Scout (Meta: "17B active, 109B total" with the vision tower): built from Llama4TextConfig's
    //   defaults, which are Scout's (16 experts, every layer MoE); 48 × 2,202,101,760 + 2,068,976,640
    //   = 107,769,861,120 for the language model; active 17,172,894,720.
    QTest::newRow("llama-4-scout text")
        << R"({"model_type": "llama4", "architectures": ["Llama4ForConditionalGeneration"],
        "text_config": {"model_type": "llama4_text", "max_position_embeddings": 10485760}})"
        << 107769861120.0 << 17172894720.0;
    // Kimi K2 (Moonshot: "1T total, 32B activated"; DeepSeek-V3's architecture, 64 heads, 384 experts,
    //   1 dense layer): 60 × 17,059,365,248 + 497,500,160 + 2·163840·7168 + 7168 = 1,026,408,232,448;
    //   active 60 × 500,253,056 + 497,500,160 + 2,348,817,408 = 32,861,500,928. Derived from the shapes.
    QTest::newRow("kimi-k2") << QString::fromStdString(shipped("kimi-k2-instruct")) << 1026408232448.0
                             << 32861500928.0;
}

void TestHfConfig::newFamiliesExact() {
    QFETCH(QString, text);
    QFETCH(double, total);
    QFETCH(double, active);
    const ParameterCount count = countParameters(read(text.toStdString()).model);
    QCOMPARE(count.total, total);
    QCOMPARE(count.active, active);
}

void TestHfConfig::gptOssLayersAndSinks() {
    const HfConfig c = read(kGptOss120b);
    QVERIFY(c.model.attentionSinks);
    QCOMPARE(c.model.slidingWindow, 128.0);
    QCOMPARE(windowedLayerCount(c.model), 18.0); // GptOssConfig: layer_types sliding where (i + 1) % 2
    QCOMPARE(c.model.windowedLayers.front(), true);
    // Without its sinks the count is 36 × 64 smaller: each is a parameter.
    ModelSpec noSinks = c.model;
    noSinks.attentionSinks = false;
    QCOMPARE(countParameters(c.model).total - countParameters(noSinks).total, 36.0 * 64);
}

void TestHfConfig::llama4InterleavedAndChunked() {
    const HfConfig c = read(shipped("llama-4-maverick-17b-128e"));
    QCOMPARE(c.model.denseLayers, 24.0);
    QCOMPARE(c.model.experts, 128.0);
    QCOMPARE(c.model.expertFfnDim, 8192.0);
    QCOMPARE(c.model.ffnDim, 16384.0);
    QCOMPARE(c.model.sharedFfnDim, 8192.0);
    // Chunked attention (8192) on the RoPE layers; every 4th layer NoPE and global (no_rope_layer_interval
    // 4).
    QCOMPARE(c.model.slidingWindow, 8192.0);
    QCOMPARE(windowedLayerCount(c.model), 36.0);
    QVERIFY(contains(c.keysDefaulted, "text_config.no_rope_layer_interval"));
}

void TestHfConfig::checkpointFormat_data() {
    QTest::addColumn<QString>("quantization");
    QTest::addColumn<QString>("format"); // empty: not modelled
    QTest::addColumn<bool>("expertsOnly");
    QTest::addColumn<double>("groupSize");
    QTest::newRow("DeepSeek-V3 fp8 128×128")
        << R"({"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]})"
        << "fp8-block128" << false << 128.0;
    QTest::newRow("gpt-oss mxfp4")
        << R"({"modules_to_not_convert": ["model.layers.*.self_attn", "lm_head"], "quant_method": "mxfp4"})"
        << "mxfp4" << true << 128.0;
    QTest::newRow("bitsandbytes nf4")
        << R"({"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_quant_type": "nf4",
               "bnb_4bit_use_double_quant": true, "bnb_4bit_compute_dtype": "bfloat16"})"
        << "nf4" << false << 128.0;
    QTest::newRow("bitsandbytes int8") << R"({"quant_method": "bitsandbytes", "load_in_8bit": true})"
                                       << "" << false << 128.0;
    QTest::newRow("gptq int4 g128")
        << R"({"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": false})"
        << "int4" << false << 128.0;
    QTest::newRow("awq int4 g64")
        << R"({"quant_method": "awq", "bits": 4, "group_size": 64, "zero_point": true})"
        << "int4" << false << 64.0;
    QTest::newRow("compressed-tensors") << R"({"quant_method": "compressed-tensors"})"
                                        << "" << false << 128.0;
}

void TestHfConfig::checkpointFormat() {
    QFETCH(QString, quantization);
    QFETCH(QString, format);
    QFETCH(bool, expertsOnly);
    QFETCH(double, groupSize);
    const HfConfig c = read(QString(kLlama)
                                .replace("\"bos_token_id\": 1", "\"quantization_config\": " + quantization)
                                .toStdString());
    QVERIFY(contains(c.keysUsed, "quantization_config"));
    if (format.isEmpty()) {
        QVERIFY(!c.checkpointFormat);
        QVERIFY(!c.notes.empty());
        return;
    }
    QVERIFY(c.checkpointFormat.has_value());
    QCOMPARE(QString::fromUtf8(weightFormatName(c.checkpointFormat->weights)), format);
    QCOMPARE(c.checkpointFormat->expertsOnly, expertsOnly);
    QCOMPARE(c.checkpointFormat->groupSize, groupSize);
}

QTEST_APPLESS_MAIN(TestHfConfig)
#include "tst_hf_config.moc"
