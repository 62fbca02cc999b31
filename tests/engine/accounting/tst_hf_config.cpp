// Reading a Hugging Face config.json: what is refused (truncated, wrong types, unknown model_type, a
// tokenizer config, an oversized or non-regular file, deep nesting), with one line naming the file and
// the key; the keys used and ignored; gemma3's nested text_config.
#include "engine/accounting/hf_config.h"
#include "engine/accounting/parameter_count.h"

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
};

namespace {
const char* kLlama = R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
  "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32000, "max_position_embeddings": 4096,
  "rope_theta": 10000.0, "bos_token_id": 1})";
}

void TestHfConfig::refused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message"); // a piece of the one-line error
    QTest::newRow("truncated") << R"({"model_type": "llama", "hidden_size": 40)" << "not valid JSON";
    QTest::newRow("wrong type") << QString(kLlama).replace("4096,", "\"4096\",") << "hidden_size: expected";
    QTest::newRow("fractional") << QString(kLlama).replace("11008", "11008.5")
                                << "intermediate_size: expected a whole number";
    QTest::newRow("missing key") << QString(kLlama).replace("\"vocab_size\": 32000,", "")
                                 << "vocab_size: required, missing";
    QTest::newRow("unknown model_type") << QString(kLlama).replace("llama", "bert")
                                        << "model_type: 'bert' is not supported";
    QTest::newRow("tokenizer_config.json")
        << R"({"add_bos_token": true, "model_max_length": 4096, "tokenizer_class": "LlamaTokenizer"})"
        << "model_type: missing";
    QTest::newRow("not an object") << "[1, 2, 3]" << "expected a JSON object";
    QTest::newRow("deep nesting") << QString("[").repeated(100000) + QString("]").repeated(100000)
                                  << "nested deeper than 16";
    // Quoted in one short line, whatever the file holds (issue 29: a message never spans lines).
    QTest::newRow("model_type with a newline")
        << QString(kLlama).replace("llama", "lla\\nma") << "model_type: 'lla?ma' is not supported";
    QTest::newRow("model_type 100 KB long") << QString(kLlama).replace("llama", QString(100000, 'x'))
                                            << "model_type: '" + QString(64, 'x') + "…' is not supported";
    QTest::newRow("model_type a number") << R"({"model_type": 7})" << "model_type: expected a string";
    QTest::newRow("invalid model") << QString(kLlama).replace("\"num_hidden_layers\": 32",
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

QTEST_APPLESS_MAIN(TestHfConfig)
#include "tst_hf_config.moc"
