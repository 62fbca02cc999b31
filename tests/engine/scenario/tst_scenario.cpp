// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files: every field survives a write/read round trip, older versions migrate, and malformed,
// truncated or future-version files are refused with a message that says what and where.
#include "engine/report/cli_command_line.h"
#include "engine/scenario/scenario.h"
#include "tests/support/scenario_samples.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>
#include <string>

#include <sys/stat.h>

using namespace napkin;

namespace {

std::string file(const std::string& body) {
    return R"({"format": "napkin-scenario", "version": 2)" + body + "}";
}

} // namespace

class TestScenario : public QObject {
    Q_OBJECT
private slots:
    void roundTripKeepsEveryField();
    void roundTripKeepsShardingAndInterleaving();
    void roundTripKeepsNonFiniteValues_data();
    void roundTripKeepsNonFiniteValues();
    void emptyFileGetsFreshWindowDefaults();
    void writtenFileIsVersioned();
    void version1Migrates();
    void version2WithoutTrainingGetsDefaults();
    void trainingLessonNames();
    void inferenceKeys_data();
    void inferenceKeys();
    void rooflineSection();
    void refused_data();
    void refused();
    void everyTruncationIsRefused();
    void fileIsReadBounded_data();
    void fileIsReadBounded();
    void unknownKeysWarnButLoad();
    void pinnedPatternSetsTheValue();
};

void TestScenario::roundTripKeepsEveryField() {
    const Scenario s = everyFieldChanged();
    QVERIFY(!(s == Scenario{})); // the fixture really changes something
    const ScenarioParse back = parseScenario(writeScenario(s));
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.fileVersion, kScenarioFormatVersion);
    QVERIFY(back.warnings.empty());
    // Field by field first, so that a failure names the field; then the whole struct.
    QCOMPARE(back.scenario->accounting.input.model, s.accounting.input.model);
    QCOMPARE(back.scenario->accounting.input, s.accounting.input);
    QCOMPARE(back.scenario->accounting, s.accounting);
    QCOMPARE(back.scenario->formats, s.formats);
    QCOMPARE(back.scenario->tensor, s.tensor);
    QCOMPARE(back.scenario->benchmarks, s.benchmarks);
    QCOMPARE(back.scenario->training.lesson, s.training.lesson);
    QCOMPARE(back.scenario->training.init, s.training.init);
    QCOMPARE(back.scenario->training.determinism, s.training.determinism);
    QCOMPARE(back.scenario->training.data, s.training.data);
    QCOMPARE(back.scenario->training.mixedPrecision, s.training.mixedPrecision);
    QCOMPARE(back.scenario->training, s.training);
    QCOMPARE(back.scenario->inference.input, s.inference.input);
    QCOMPARE(back.scenario->inference, s.inference);
    QCOMPARE(back.scenario->roofline, s.roofline);
    QVERIFY(*back.scenario == s);
}

void TestScenario::roundTripKeepsNonFiniteValues_data() {
    QTest::addColumn<double>("value");
    QTest::newRow("+inf") << std::numeric_limits<double>::infinity();
    QTest::newRow("-inf") << -std::numeric_limits<double>::infinity();
    QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("smallest subnormal double") << 4.9406564584124654e-324;
    QTest::newRow("-0") << -0.0;
    QTest::newRow("0.1 exactly as typed") << 0.1;
}

void TestScenario::roundTripKeepsNonFiniteValues() {
    QFETCH(double, value);
    Scenario s;
    s.formats.value = value;
    const ScenarioParse back = parseScenario(writeScenario(s));
    QVERIFY2(back.ok(), back.error.c_str());
    const double got = back.scenario->formats.value;
    if (std::isnan(value)) {
        QVERIFY(std::isnan(got));
    } else {
        QCOMPARE(got, value);
        QCOMPARE(std::signbit(got), std::signbit(value));
    }
}

void TestScenario::emptyFileGetsFreshWindowDefaults() {
    const ScenarioParse p = parseScenario(file(""));
    QVERIFY2(p.ok(), p.error.c_str());
    QVERIFY(*p.scenario == Scenario{});
    QCOMPARE(p.scenario->accounting.input.model.dModel, 768.0); // GPT-2 small, as a fresh page shows
    QCOMPARE(*p.scenario->accounting.input.trainingTokens, 20e9);
}

void TestScenario::writtenFileIsVersioned() {
    const std::string text = writeScenario(Scenario{});
    QVERIFY(text.find("\"format\": \"napkin-scenario\"") != std::string::npos);
    QVERIFY(text.find("\"version\": " + std::to_string(kScenarioFormatVersion)) != std::string::npos);
    QVERIFY(text.ends_with("}\n"));
}

// Version 1 held the accounting page only, keyed as the settings were; "tokens": 0 meant no totals.
void TestScenario::version1Migrates() {
    const std::string v1 = R"({"format": "napkin-scenario", "version": 1, "accounting": {
        "model": "cruncher", "params": 5000, "dim": 8, "layers": 3, "dModel": 512, "ffnMult": 2,
        "batch": 2, "tokens": 0, "precision": "fp16", "fp32Gradients": true, "optimizer": "adagrad",
        "gpu": "H200", "gpus": 8, "mfu": 0.4, "zero": 2, "recompute": "full", "attention": "full", "units": 1}})";
    const ScenarioParse p = parseScenario(v1);
    QVERIFY2(p.ok(), p.error.c_str());
    QCOMPARE(p.fileVersion, 1);
    const AccountingScenario& a = p.scenario->accounting;
    QCOMPARE(a.input.model.kind, ModelKind::cruncher);
    QCOMPARE(a.input.model.parameters, 5000.0);
    QCOMPARE(a.input.model.dim, 8.0);
    QCOMPARE(a.input.model.layers, 3.0);
    QCOMPARE(a.input.model.dModel, 512.0);
    QCOMPARE(a.input.model.ffnMult, 2.0);
    QCOMPARE(a.input.batch, 2.0);
    QVERIFY(!a.input.trainingTokens.has_value());
    QCOMPARE(a.input.precision, PrecisionRecipe::fp16);
    QVERIFY(a.input.fp32Gradients);
    QCOMPARE(a.input.optimizer, OptimizerKind::adagrad);
    QCOMPARE(a.input.gpu, std::string("H200"));
    QCOMPARE(a.input.gpus, 8.0);
    QCOMPARE(a.input.mfu, 0.4);
    QCOMPARE(a.input.zeroStage, 2);
    QCOMPARE(a.input.recompute, Recompute::full);
    QCOMPARE(a.input.attention, AttentionMask::full);
    QVERIFY(a.binaryUnits);
    // Pages version 1 did not have keep a fresh window's state.
    QVERIFY(p.scenario->formats == FormatsScenario{});
    QVERIFY(p.scenario->tensor == TensorScenario{});
    QVERIFY(p.scenario->benchmarks == BenchmarksScenario{});

    const ScenarioParse withTokens =
        parseScenario(R"({"format": "napkin-scenario", "version": 1, "accounting": {"tokens": 15e12}})");
    QVERIFY2(withTokens.ok(), withTokens.error.c_str());
    QCOMPARE(*withTokens.scenario->accounting.input.trainingTokens, 15e12);
}

// Files written before the Training tab was saved are version 2 without "training": its panels open
// as a fresh window shows them, and the other sections as written.
void TestScenario::version2WithoutTrainingGetsDefaults() {
    QFile seed(QFINDTESTDATA("../../fuzz/corpus/fuzz_scenario/v2-defaults.json"));
    QVERIFY(seed.open(QIODevice::ReadOnly));
    const std::string text = seed.readAll().toStdString();
    QVERIFY(text.find("\"training\"") == std::string::npos); // the seed predates the section
    std::string changed = text;
    changed.replace(changed.find("\"steps\": 50"), 12, "\"steps\": 77");
    const ScenarioParse p = parseScenario(changed);
    QVERIFY2(p.ok(), p.error.c_str());
    QVERIFY(p.warnings.empty());
    QCOMPARE(p.fileVersion, 2);
    QCOMPARE(p.scenario->benchmarks.steps, 77L);
    QVERIFY(p.scenario->training == TrainingScenario{});
    QCOMPARE(p.scenario->training.init.dim, 256L); // the slider's fresh D
    QCOMPARE(p.scenario->training.mixedPrecision.steps, 300L);
    QCOMPARE(p.scenario->training.data.path, std::string()); // the demo file
    // A partial section: what is there applies, the rest stays fresh.
    const ScenarioParse partial = parseScenario(file(R"(, "training": {"init": {"layers": 3}})"));
    QVERIFY2(partial.ok(), partial.error.c_str());
    TrainingScenario want;
    want.init.layers = 3;
    QCOMPARE(partial.scenario->training, want);
}

// The "inference" section (added within version 2): each key sets its field, the model follows the
// preset, and a file without the section opens a fresh Inference tab (Llama 3 8B, bf16, H100, S 8192).
void TestScenario::inferenceKeys_data() {
    QTest::addColumn<std::string>("section");
    QTest::addColumn<InferenceScenario>("want");
    InferenceScenario fresh;
    QTest::newRow("absent") << std::string() << fresh;
    // A section without "overheads" was saved before serving had the ledger: its "fits" meant the
    // datasheet's capacity, and it reads so (tst_scenario_overheads.cpp).
    const InferenceScenario absent = fresh;
    fresh.input.overheads = datasheetOverheads();
    InferenceScenario seventy = fresh;
    seventy.preset = "llama3-70b";
    seventy.input.model = findModelPreset("llama3-70b")->model;
    seventy.input.gpus = 4;
    QTest::newRow("preset, gpus") << std::string(R"(, "inference": {"preset": "Llama3-70B", "gpus": 4})")
                                  << seventy;
    InferenceScenario quantized = fresh;
    quantized.input.weights = WeightFormat::int4;
    quantized.input.groupSize = 32;
    quantized.input.kvCache = StorageType::fp8;
    quantized.input.gpu = "A100-SXM";
    QTest::newRow("formats, gpu")
        << std::string(
               R"(, "inference": {"weights": "int4", "group_size": 32, "kv_cache": "fp8", "gpu": "A100-SXM"})")
        << quantized;
    InferenceScenario prompt = fresh;
    prompt.input.context = 2048;
    prompt.input.batch = 64;
    prompt.input.prompt = 512;
    prompt.promptShown = 512;
    QTest::newRow("context, batch, prompt")
        << std::string(
               R"(, "inference": {"context": 2048, "batch": 64, "prompt": 512, "prompt_is_context": false})")
        << prompt;
    InferenceScenario shownOnly = fresh;
    shownOnly.promptShown = 100;
    QTest::newRow("prompt kept, not used") << std::string(R"(, "inference": {"prompt": 100})") << shownOnly;
    QTest::newRow("page inference") << std::string(R"(, "page": "inference")") << absent;
}

void TestScenario::inferenceKeys() {
    QFETCH(std::string, section);
    QFETCH(InferenceScenario, want);
    const ScenarioParse p = parseScenario(file(section));
    QVERIFY2(p.ok(), p.error.c_str());
    QVERIFY(p.warnings.empty());
    QCOMPARE(p.scenario->inference.input.model, want.input.model);
    QCOMPARE(p.scenario->inference.input, want.input);
    QCOMPARE(p.scenario->inference, want);
    if (section.find("\"page\"") != std::string::npos)
        QCOMPARE(p.scenario->page, ScenarioPage::inference);
    // What was read is written back as read.
    const ScenarioParse back = parseScenario(writeScenario(*p.scenario));
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->inference, want);
}

// A file without the roofline section opens on H100-SXM bf16; the catalog id is stored as the catalog
// spells it.
void TestScenario::rooflineSection() {
    const ScenarioParse none = parseScenario(file(""));
    QVERIFY2(none.ok(), none.error.c_str());
    QVERIFY(none.scenario->roofline == RooflineScenario{});
    QCOMPARE(none.scenario->roofline.device, std::string("H100-SXM"));
    const ScenarioParse p =
        parseScenario(file(R"(, "page": "roofline", "roofline": {"device": "h200", "dtype": "fp8"})"));
    QVERIFY2(p.ok(), p.error.c_str());
    QCOMPARE(p.scenario->page, ScenarioPage::roofline);
    QCOMPARE(p.scenario->roofline.device, std::string("H200"));
    QCOMPARE(p.scenario->roofline.dtype, ComputeType::fp8);
    const ScenarioParse cpu = parseScenario(file(R"(, "roofline": {"device": "cpu"})"));
    QVERIFY2(cpu.ok(), cpu.error.c_str());
    QCOMPARE(cpu.scenario->roofline.device, std::string("cpu"));
}

void TestScenario::trainingLessonNames() {
    for (TrainingLesson l : {TrainingLesson::init, TrainingLesson::determinism, TrainingLesson::data,
                             TrainingLesson::mixedPrecision})
        QCOMPARE(trainingLessonFromName(trainingLessonName(l)), std::optional<TrainingLesson>(l));
    QVERIFY(!trainingLessonFromName("Init").has_value());
}

void TestScenario::refused_data() {
    QTest::addColumn<std::string>("text");
    QTest::addColumn<QString>("message"); // a part of the expected message
    QTest::newRow("empty") << std::string() << "not valid JSON";
    QTest::newRow("garbage") << std::string("\x89PNG\r\n\x1a\n garbage") << "not valid JSON";
    QTest::newRow("truncated") << std::string(
                                      R"({"format": "napkin-scenario", "version": 2, "accounting": {"mfu)")
                               << "not valid JSON";
    QTest::newRow("array") << std::string("[1, 2]") << "not an object";
    QTest::newRow("no format") << std::string(R"({"version": 2})") << "\"format\"";
    QTest::newRow("other format") << std::string(R"({"format": "jupyter", "version": 2})")
                                  << "not a Napkin scenario";
    QTest::newRow("no version") << std::string(R"({"format": "napkin-scenario"})")
                                << "\"version\" is missing";
    QTest::newRow("version as text") << std::string(R"({"format": "napkin-scenario", "version": "2"})")
                                     << "\"version\"";
    QTest::newRow("version 2.5") << std::string(R"({"format": "napkin-scenario", "version": 2.5})")
                                 << "\"version\"";
    QTest::newRow("version 0") << std::string(R"({"format": "napkin-scenario", "version": 0})")
                               << "1 or more";
    QTest::newRow("future version") << std::string(R"({"format": "napkin-scenario", "version": 3})")
                                    << "newer Napkin (format version 3)";
    QTest::newRow("far future version")
        << std::string(R"({"format": "napkin-scenario", "version": 99999999999})") << "newer Napkin";
    QTest::newRow("section not object") << file(R"(, "accounting": 5)") << "accounting: must be an object";
    QTest::newRow("mfu above 1") << file(R"(, "accounting": {"mfu": 2})")
                                 << "accounting.mfu: must be in (0, 1]";
    QTest::newRow("mfu as text") << file(R"(, "accounting": {"mfu": "0.5"})")
                                 << "accounting.mfu: must be a number";
    QTest::newRow("mfu overflows") << file(R"(, "accounting": {"mfu": 1e999})") << "number overflow";
    QTest::newRow("negative batch") << file(R"(, "accounting": {"batch": -1})") << "accounting.batch";
    QTest::newRow("unknown gpu") << file(R"(, "accounting": {"gpu": "Z80"})")
                                 << "accounting.gpu: unknown value 'Z80'";
    QTest::newRow("unknown kind") << file(R"(, "accounting": {"model": {"kind": "rnn"}})")
                                  << "accounting.model.kind: unknown value 'rnn'";
    QTest::newRow("model not object")
        << file(R"(, "accounting": {"model": "dense"})") << "accounting.model: must be an object";
    QTest::newRow("zero 1.5") << file(R"(, "accounting": {"zero": 1.5})") << "accounting.zero";
    QTest::newRow("kv heads 1.5") << file(R"(, "accounting": {"model": {"kv_heads": 1.5}})")
                                  << "accounting.model.kv_heads";
    QTest::newRow("unknown mlp") << file(R"(, "accounting": {"model": {"mlp": "relu"}})")
                                 << "accounting.model.mlp: unknown value";
    QTest::newRow("bias as boolean") << file(R"(, "accounting": {"model": {"bias": true}})")
                                     << "accounting.model.bias";
    QTest::newRow("tp 0") << file(R"(, "accounting": {"parallel": {"tp": 0}})") << "accounting.parallel.tp";
    QTest::newRow("parallel not object")
        << file(R"(, "accounting": {"parallel": 8})") << "accounting.parallel: must be an object";
    QTest::newRow("zero 4") << file(R"(, "accounting": {"zero": 4})") << "accounting.zero";
    QTest::newRow("units") << file(R"(, "accounting": {"units": "KB"})") << "accounting.units";
    QTest::newRow("unknown page") << file(R"(, "page": "settings")") << "page: unknown value";
    QTest::newRow("value not a number") << file(R"(, "formats": {"value": "abc"})") << "formats.value";
    QTest::newRow("value a list") << file(R"(, "formats": {"value": [1]})") << "formats.value";
    QTest::newRow("pinned without bits")
        << file(R"(, "formats": {"pinned": {"format": "fp16"}})") << "formats.pinned";
    QTest::newRow("pinned bits too big")
        << file(R"(, "formats": {"pinned": {"format": "fp16", "bits": 4294967296}})")
        << "formats.pinned.bits";
    QTest::newRow("tensor dtype") << file(R"(, "tensor": {"dtype": "fp128"})") << "tensor.dtype";
    QTest::newRow("tensor step") << file(R"(, "tensor": {"step": -2})") << "tensor.step";
    QTest::newRow("dtypes not list") << file(R"(, "benchmarks": {"dtypes": "fp32"})") << "benchmarks.dtypes";
    QTest::newRow("dtypes unknown") << file(R"(, "benchmarks": {"dtypes": ["fp32", 7]})")
                                    << "benchmarks.dtypes: unknown type 7";
    QTest::newRow("bench dim 0") << file(R"(, "benchmarks": {"dim": 0})") << "benchmarks.dim";
    QTest::newRow("bench steps 1.5") << file(R"(, "benchmarks": {"steps": 1.5})")
                                     << "benchmarks.steps: must be a whole";
    QTest::newRow("bench cpu backend unknown")
        << file(R"(, "benchmarks": {"cpuBackend": "mkl"})") << "benchmarks.cpuBackend: unknown value 'mkl'";
    // The CPU trainers run fp32 and mixed-bf16; a recipe they cannot run is refused where it is read.
    QTest::newRow("bench precision fp8") << file(R"(, "benchmarks": {"precision": "fp8-mixed"})")
                                         << "benchmarks.precision: unknown value 'fp8-mixed'";
    QTest::newRow("training not object") << file(R"(, "training": [])") << "training: must be an object";
    QTest::newRow("lesson unknown") << file(R"(, "training": {"lesson": "dropout"})")
                                    << "training.lesson: unknown value 'dropout'";
    QTest::newRow("init dim 2") << file(R"(, "training": {"init": {"dim": 2}})")
                                << "training.init.dim: must be from 4 to 2048";
    QTest::newRow("init dim 4096") << file(R"(, "training": {"init": {"dim": 4096}})")
                                   << "training.init.dim: must be from 4 to 2048";
    QTest::newRow("init dim 100") << file(R"(, "training": {"init": {"dim": 100}})")
                                  << "training.init.dim: must be a power of two from 4 to 2048";
    QTest::newRow("init layers 65") << file(R"(, "training": {"init": {"layers": 65}})")
                                    << "training.init.layers: must be from 1 to 64";
    QTest::newRow("init seed -1") << file(R"(, "training": {"init": {"seed": -1}})")
                                  << "training.init.seed: must be from 0 to 1000000";
    QTest::newRow("init seed 0.5") << file(R"(, "training": {"init": {"seed": 0.5}})")
                                   << "training.init.seed: must be a whole number";
    QTest::newRow("determinism steps 9") << file(R"(, "training": {"determinism": {"steps": 9}})")
                                         << "training.determinism.steps: must be from 10 to 2000";
    QTest::newRow("determinism dataset seed")
        << file(R"(, "training": {"determinism": {"dataset_seed": 1000001}})")
        << "training.determinism.dataset_seed: must be from 0 to 1000000";
    QTest::newRow("run b data seed") << file(
                                            R"(, "training": {"determinism": {"run_b": {"data_seed": "2"}}})")
                                     << "training.determinism.run_b.data_seed: must be a number";
    QTest::newRow("run a not object") << file(R"(, "training": {"determinism": {"run_a": 1}})")
                                      << "training.determinism.run_a: must be an object";
    QTest::newRow("data token type") << file(R"(, "training": {"data": {"token_type": "int64"}})")
                                     << "training.data.token_type: unknown value 'int64'";
    QTest::newRow("data path not text")
        << file(R"(, "training": {"data": {"path": 5}})") << "training.data.path: must be a string";
    QTest::newRow("data batch 513") << file(R"(, "training": {"data": {"batch": 513}})")
                                    << "training.data.batch: must be from 1 to 512";
    QTest::newRow("data context 0") << file(R"(, "training": {"data": {"context": 0}})")
                                    << "training.data.context: must be from 1 to 8192";
    QTest::newRow("data batches") << file(R"(, "training": {"data": {"batches": 10001}})")
                                  << "training.data.batches: must be from 1 to 10000";
    QTest::newRow("data megabytes") << file(R"(, "training": {"data": {"demo_megabytes": 0}})")
                                    << "training.data.demo_megabytes: must be from 1 to 4000";
    QTest::newRow("data seed") << file(R"(, "training": {"data": {"seed": 1e7}})")
                               << "training.data.seed: must be from 0 to 1000000";
    QTest::newRow("mixed steps 5001") << file(R"(, "training": {"mixed_precision": {"steps": 5001}})")
                                      << "training.mixed_precision.steps: must be from 10 to 5000";
    QTest::newRow("inference preset")
        << file(R"(, "inference": {"preset": "llama9"})") << "inference.preset: unknown value 'llama9'";
    QTest::newRow("inference kv int8")
        << file(R"(, "inference": {"kv_cache": "int8"})") << "inference.kv_cache: unknown value 'int8'";
    QTest::newRow("inference weights")
        << file(R"(, "inference": {"weights": "int3"})") << "inference.weights: unknown value 'int3'";
    QTest::newRow("inference group 1.5")
        << file(R"(, "inference": {"group_size": 1.5})") << "inference.group_size: must be a whole number";
    // The serving knobs in their table's words (inference_knobs.h), the range napkin-cli infer takes.
    QTest::newRow("inference context 0") << file(R"(, "inference": {"context": 0})")
                                         << "inference.context: must be a whole number from 1 to 1.00e8";
    QTest::newRow("inference batch") << file(R"(, "inference": {"batch": 2e9})")
                                     << "inference.batch: must be a whole number from 1 to 1.00e9";
    QTest::newRow("inference gpus") << file(R"(, "inference": {"gpus": 0})")
                                    << "inference.gpus: must be a whole number from 1 to 100000";
    QTest::newRow("inference page") << file(R"(, "page": "inferences")") << "page: unknown value";
    QTest::newRow("roofline device") << file(R"(, "roofline": {"device": "H900"})")
                                     << "roofline.device: unknown value 'H900'";
    QTest::newRow("roofline dtype") << file(R"(, "roofline": {"dtype": "int4"})")
                                    << "roofline.dtype: unknown value 'int4'";
    QTest::newRow("roofline device type")
        << file(R"(, "roofline": {"device": 7})") << "roofline.device: must be a string";
    QTest::newRow("roofline not an object") << file(R"(, "roofline": [])") << "roofline: must be an object";
    QTest::newRow("text too long") << file(R"(, "tensor": {"expression": ")" + std::string(5000, 'x') + "\"}")
                                   << "tensor.expression: is longer";
    QTest::newRow("deep nesting") << std::string(100000, '[') << "nested deeper than 32 levels";
    // A dtypes list nested 60,000 deep crashed (SIGSEGV) the message that dumped it; 33 is refused first.
    QTest::newRow("dtypes nested 60000 deep")
        << file(R"(, "benchmarks": {"dtypes": )" + std::string(60000, '[') + std::string(60000, ']') + "}")
        << "nested deeper than 32 levels";
    QTest::newRow("dtypes nested 33 deep")
        << file(R"(, "benchmarks": {"dtypes": )" + std::string(31, '[') + std::string(31, ']') + "}")
        << "nested deeper than 32 levels";
    QTest::newRow("dtypes item a list") << file(R"(, "benchmarks": {"dtypes": [[["fp32"]]]})")
                                        << "benchmarks.dtypes: unknown type (an array)";
    QTest::newRow("brackets inside strings do not count")
        << file(R"(, "tensor": {"expression": ")" + std::string(100, '[') + R"(", "dtype": "fp128"})")
        << "tensor.dtype: unknown value";
    // One line, whatever the file holds.
    QTest::newRow("a name with a newline")
        << file(R"(, "accounting": {"gpu": "H100\nSXM"})") << "accounting.gpu: unknown value 'H100?SXM'";
    QTest::newRow("a key with a newline")
        << file(R"(, "accounting": {"gpu\n": 1}, "page": "x")") << "page: unknown value 'x'";
    QTest::newRow("version 2^63") << std::string(
                                         R"({"format": "napkin-scenario", "version": 9223372036854775808})")
                                  << "newer Napkin (format version 9223372036854775808)";
    // The accounting page's own rules, named by section and key.
    QTest::newRow("gpus 1.5") << file(R"(, "accounting": {"gpus": 1.5})")
                              << "accounting.gpus: must be a whole";
    QTest::newRow("batch 2.5") << file(R"(, "accounting": {"batch": 2.5})")
                               << "accounting.batch: must be a whole";
    QTest::newRow("layers 3.5") << file(
                                       R"(, "accounting": {"model": {"kind": "transformer", "layers": 3.5}})")
                                << "accounting.model.layers: must be a whole";
    QTest::newRow("tp 7 with 12 heads")
        << file(R"(, "accounting": {"model": {"kind": "transformer"}, "gpus": 7, "parallel": {"tp": 7}})")
        << "accounting.parallel.tp: must divide heads (12)";
    QTest::newRow("LoRA on a dense model") << file(R"(, "accounting": {"fine_tuning": {"method": "lora"}})")
                                           << "accounting.fine_tuning.method: lora adapts a transformer";
    // The Inference tab's own rules too: once loaded, the tab showed its last valid result.
    QTest::newRow("inference gpus 3 with 32 heads")
        << file(R"(, "inference": {"preset": "llama3-8b", "gpus": 3})")
        << "inference.gpus: tensor parallelism over 3 GPUs must divide heads (32)";
    QTest::newRow("inference prompt beyond the context")
        << file(R"(, "inference": {"context": 1024, "prompt": 2048, "prompt_is_context": false})")
        << "inference.prompt: must be a whole number from 1 to 1024";
    QTest::newRow("over 1 MiB") << file(R"(, "pad": ")" + std::string(kScenarioMaxBytes, ' ') + "\"")
                                << "larger than 1 MiB";
    QTest::newRow("v1 tokens 5")
        << std::string(R"({"format": "napkin-scenario", "version": 1, "accounting": {"tokens": 5}})")
        << "accounting.tokens";
}

void TestScenario::refused() {
    QFETCH(std::string, text);
    QFETCH(QString, message);
    const ScenarioParse p = parseScenario(text);
    QVERIFY(!p.ok());
    QVERIFY2(QString::fromStdString(p.error).contains(message), p.error.c_str());
    QVERIFY2(p.error.find('\n') == std::string::npos, p.error.c_str()); // one line, whatever the file holds
    QVERIFY(p.warnings.empty());
}

// A crash during an old-style write leaves a prefix of the file: every prefix must be refused cleanly.
void TestScenario::everyTruncationIsRefused() {
    const std::string text = writeScenario(everyFieldChanged());
    const std::size_t lastBrace = text.rfind('}');
    for (std::size_t n = 0; n < lastBrace; ++n) {
        const ScenarioParse p = parseScenario(std::string_view(text).substr(0, n));
        if (p.ok())
            QFAIL(qPrintable(QStringLiteral("a prefix of %1 bytes was accepted").arg(n)));
        QVERIFY(!p.error.empty());
    }
}

// readScenarioFile, behind the app's Open and `napkin --scenario`: only a regular file of at most 1 MiB is
// read, checked before a byte is; a FIFO made the loader wait for a writer, /dev/zero was read for a MiB.
void TestScenario::fileIsReadBounded_data() {
    QTest::addColumn<QString>("node"); // what sits at the path: "file", "folder", "fifo", "missing" or a path
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("error"); // substring; empty: loads
    QTest::newRow("a scenario file") << "file" << QByteArray(R"({"format": "napkin-scenario", "version": 2})")
                                     << "";
    QTest::newRow("a damaged file, named") << "file" << QByteArray("{") << "scenario.json: not valid JSON";
    QTest::newRow("/dev/zero") << "/dev/zero" << QByteArray() << "/dev/zero is not a regular file";
    QTest::newRow("a folder") << "folder" << QByteArray() << "scenario.json is not a regular file";
    QTest::newRow("a FIFO") << "fifo" << QByteArray() << "scenario.json is not a regular file";
    QTest::newRow("missing") << "missing" << QByteArray() << "cannot open";
    QTest::newRow("over 1 MiB") << "file" << QByteArray(static_cast<int>(kScenarioMaxBytes) + 1, ' ')
                                << "more than the 1048576 bytes allowed";
}

void TestScenario::fileIsReadBounded() {
    QFETCH(QString, node);
    QFETCH(QByteArray, content);
    QFETCH(QString, error);
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("scenario.json"));
    if (node == QLatin1String("file")) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(content), content.size());
    } else if (node == QLatin1String("folder")) {
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("scenario.json")));
    } else if (node == QLatin1String("fifo")) {
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (node != QLatin1String("missing")) {
        path = node;
    }
    const ScenarioParse p = readScenarioFile(QFile::encodeName(path).toStdString());
    if (error.isEmpty()) {
        QVERIFY2(p.ok(), p.error.c_str());
        return;
    }
    QVERIFY(!p.ok());
    QVERIFY2(QString::fromStdString(p.error).contains(error), p.error.c_str());
    QVERIFY2(p.error.find('\n') == std::string::npos, p.error.c_str());
}

void TestScenario::unknownKeysWarnButLoad() {
    const ScenarioParse p =
        parseScenario(file(R"(, "colour": "red", "tensor": {"shape": "4,4", "zoom": 2})"));
    QVERIFY2(p.ok(), p.error.c_str());
    QCOMPARE(p.scenario->tensor.shape, std::string("4,4"));
    QCOMPARE(p.warnings.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(p.warnings[0]), QStringLiteral("colour: unknown key, ignored"));
    QCOMPARE(QString::fromStdString(p.warnings[1]), QStringLiteral("tensor.zoom: unknown key, ignored"));
}

// The page shows a pinned pattern's value; a hand-edited file whose value disagrees gets the pattern's.
void TestScenario::pinnedPatternSetsTheValue() {
    const ScenarioParse p =
        parseScenario(file(R"(, "formats": {"value": 5, "pinned": {"format": "fp16", "bits": 15360}})"));
    QVERIFY2(p.ok(), p.error.c_str());
    QCOMPARE(p.scenario->formats.value, 1.0); // fp16 0x3c00
    QCOMPARE(p.scenario->formats.pinnedBits, std::uint32_t(0x3c00));
    const ScenarioParse masked =
        parseScenario(file(R"(, "formats": {"pinned": {"format": "fp8-e4m3", "bits": 65535}})"));
    QVERIFY2(masked.ok(), masked.error.c_str());
    QCOMPARE(masked.scenario->formats.pinnedBits, std::uint32_t(0xff)); // 8 bits kept
}

// ZeRO/FSDP's options and the interleaved schedule are kept; a file without them (older) has them off, and
// a combination the page would refuse is refused naming its key.
void TestScenario::roundTripKeepsShardingAndInterleaving() {
    Scenario s;
    AccountingInput& in = s.accounting.input;
    in.model.kind = ModelKind::transformer; // the fresh scenario's GPT-2 small fields
    in.model.layers = 12;                   // p·v = 4 × 3
    in.gpus = 8;
    in.parallel.pp = 4;
    in.parallel.microbatches = 8;
    in.parallel.virtualStages = 3;
    in.zeroStage = 3;
    in.precision = PrecisionRecipe::mixedBf16;
    in.sharding.gathered = GatheredLayers::fsdp;
    in.sharding.prefetchLayers = 2;
    in.sharding.fp32Reduce = true;
    in.sharding.shardGroup = 2;
    const ScenarioParse back = parseScenario(writeScenario(s));
    QVERIFY2(back.ok(), back.error.c_str());
    QVERIFY(back.scenario->accounting.input.sharding == in.sharding);
    QCOMPARE(back.scenario->accounting.input.parallel.virtualStages, 3.0);
    nlohmann::json doc = nlohmann::json::parse(writeScenario(s));
    doc["accounting"].erase("sharding");
    const ScenarioParse older = parseScenario(doc.dump());
    QVERIFY2(older.ok(), older.error.c_str());
    QVERIFY(older.scenario->accounting.input.sharding == ShardingOptions{});
    doc["accounting"]["sharding"] = {{"two_gradient_copies", true}}; // under ZeRO-3: refused
    const ScenarioParse refused = parseScenario(doc.dump());
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error.find("sharding.two_gradient_copies") != std::string::npos, refused.error.c_str());
    // Copy as command says them too (the defaults say nothing).
    QVERIFY(accountCommandLine(AccountingInput{}).find("--gathered-layers") == std::string::npos);
    const std::string line = accountCommandLine(in);
    for (const char* flag : {"--virtual-stages 3", "--gathered-layers fsdp", "--prefetch-layers 2", "--fp32-reduce",
                             "--shard-group 2"})
        QVERIFY2(line.find(flag) != std::string::npos, line.c_str());
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
