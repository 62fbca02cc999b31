// SPDX-License-Identifier: GPL-3.0-or-later
// What the chosen part cannot do, applied before accounting: flash attention falls back to the eager kernel
// below Ampere (and the activation ledger then keeps the a·s² scores), bf16 on Turing runs at the fp32 rate,
// fp8 on Ampere and a peak no source gives (Apple's M4 Max) leave the memory answered and the time missing
// with the reason. Plus the run's cost on the lecture's setup.
#include "engine/accounting/capability_rules.h"
#include "engine/inference/inference_warnings.h"
#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/setup_presets.h"
#include "engine/hardware/gpu_capabilities.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

class TestCapabilityRules : public QObject {
    Q_OBJECT
private slots:
    void flashFallsBackBelowAmpere();
    void ampereKeepsFlash();
    void bf16OnT4RunsAtTheFp32Rate();
    void fp8OnA100HasMemoryAndNoTime();
    void notGivenPeakHasMemoryAndNoTime();
    void everyPartAccountsMemory_data();
    void everyPartAccountsMemory();
    void lectureRunCost();
    void inferenceWarnings();
    void contextPastTheModelWarns_data();
    void contextPastTheModelWarns();
};

namespace {
AccountingInput llamaOn(const std::string& gpu) {
    AccountingInput in = findSetupPreset("llama3-8b-qlora-24gb")->input;
    in.gpu = gpu;
    in.recompute = Recompute::none;
    in.model.seq = 1024;
    return in;
}
} // namespace

void TestCapabilityRules::flashFallsBackBelowAmpere() {
    AccountingInput in = llamaOn("T4");
    QCOMPARE(in.model.attentionImpl, AttentionImpl::flash);
    const AccountingInput asked = in;
    const GpuSpec& t4 = *GpuCatalog::builtIn().find("T4");
    const std::vector<std::string> warnings = applyCapabilityRules(in, t4);
    QCOMPARE(in.model.attentionImpl, AttentionImpl::eager);
    QCOMPARE(warnings.size(), std::size_t(2)); // bf16 emulated, attention falls back
    QVERIFY(QString::fromStdString(warnings[1]).contains("FlashAttention 2 needs Ampere"));
    QVERIFY(validate(in).ok());
    // The ledger follows: the eager kernel keeps the scores, so the activations grow.
    const AccountingResult fallback = account(in, t4);
    const AccountingResult flash = account(asked, t4);
    QVERIFY(fallback.memory.activations.value > flash.memory.activations.value);
}

void TestCapabilityRules::ampereKeepsFlash() {
    AccountingInput in = llamaOn("A100-SXM");
    const std::vector<std::string> warnings =
        applyCapabilityRules(in, *GpuCatalog::builtIn().find("A100-SXM"));
    QVERIFY(warnings.empty());
    QCOMPARE(in.model.attentionImpl, AttentionImpl::flash);
}

void TestCapabilityRules::bf16OnT4RunsAtTheFp32Rate() {
    AccountingInput in = findSetupPreset("70b-15t-1024-h100")->input; // mixed bf16
    in.gpu = "T4";
    const GpuSpec& t4 = *GpuCatalog::builtIn().find("T4");
    const std::vector<std::string> warnings = applyCapabilityRules(in, t4);
    QCOMPARE(warnings.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(warnings[0]).contains("no bf16 tensor cores"));
    QVERIFY(validate(in).ok());
    const AccountingResult r = account(in, t4);
    QCOMPARE(r.densePeakFlopsPerSecond.value, 8.1e12);
    QVERIFY(QString::fromStdString(r.densePeakFlopsPerSecond.formula).contains("emulated"));
}

void TestCapabilityRules::fp8OnA100HasMemoryAndNoTime() {
    AccountingInput in = findSetupPreset("70b-15t-1024-h100")->input;
    in.gpu = "A100-SXM";
    in.precision = PrecisionRecipe::fp8Mixed;
    QVERIFY(validate(in).ok()); // memory needs no fp8 peak
    const GpuSpec& a100 = *GpuCatalog::builtIn().find("A100-SXM");
    const std::vector<std::string> warnings = capabilityWarnings(in, a100);
    QCOMPARE(warnings.size(), std::size_t(1));
    QVERIFY2(warnings[0].find("fp8 needs Ada Lovelace or Hopper") != std::string::npos, warnings[0].c_str());
    const AccountingResult r = account(in, a100);
    QVERIFY(!r.trainingSeconds && !r.trainingDays && !r.gpuDays && !r.runCost);
    QVERIFY(r.trainingFlops); // the FLOPs need no peak: 6 · 70e9 · 15e12
    QCOMPARE(r.trainingFlops->value, 6 * 70e9 * 15e12);
    QVERIFY2(r.timeUnavailable.find("fp8 needs Ada Lovelace or Hopper") != std::string::npos,
             r.timeUnavailable.c_str());
    QCOMPARE(r.densePeakFlopsPerSecond.value, 0.0);
    // The memory is the recipe's (bf16 weights and gradients, fp32 master and Adam state), as on a part
    // that has the fp8 peak.
    AccountingInput onH100 = in;
    onH100.gpu = "H100-SXM";
    const AccountingResult h100 = account(onH100, *GpuCatalog::builtIn().find("H100-SXM"));
    QCOMPARE(r.memory.total.value, h100.memory.total.value);
    QVERIFY(std::isfinite(r.maxParameters.value) && r.maxParameters.value > 0);
}

void TestCapabilityRules::notGivenPeakHasMemoryAndNoTime() {
    AccountingInput in = findSetupPreset("70b-15t-1024-h100")->input;
    in.gpu = "MI300X";
    QVERIFY(validate(in).ok());
    const AccountingResult r = account(in, *GpuCatalog::builtIn().find("MI300X"));
    QVERIFY(!r.trainingSeconds);
    QVERIFY2(r.timeUnavailable.find("no source gives") != std::string::npos, r.timeUnavailable.c_str());
    QVERIFY(r.memory.total.value > 0);
}

// Every catalog part with every recipe: validate() accepts, account() computes the memory (the same bytes
// as on an H100, the model's states and activations do not depend on the part), fits and the largest batch;
// a time is given exactly where the part has a peak for the recipe's arithmetic, and where it has none the
// answer says why. GPT-2 small with eager attention (no flash fallback to change the activations), 1e9
// tokens, the datasheet basis (so "fits" reads the part's own memory alone).
void TestCapabilityRules::everyPartAccountsMemory_data() {
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("precision");
    for (const GpuSpec& gpu : GpuCatalog::builtIn().gpus())
        for (const PrecisionRecipe p : allPrecisionRecipes())
            QTest::addRow("%s %s", gpu.id.c_str(), std::string(precisionRecipeName(p)).c_str())
                << QString::fromStdString(gpu.id) << static_cast<int>(p);
}

void TestCapabilityRules::everyPartAccountsMemory() {
    QFETCH(QString, gpu);
    QFETCH(int, precision);
    AccountingInput in;
    in.model = findModelPreset("gpt2-small")->model;
    in.model.attentionImpl = AttentionImpl::eager;
    in.batch = 4;
    in.trainingTokens = 1e9;
    in.precision = static_cast<PrecisionRecipe>(precision);
    in.overheads = datasheetOverheads();
    in.gpu = gpu.toStdString();
    const InputError error = validate(in);
    QVERIFY2(error.ok(), (error.field + ": " + error.message).c_str());
    const GpuSpec& part = *GpuCatalog::builtIn().find(in.gpu);
    const AccountingResult r = account(in, part);

    AccountingInput reference = in;
    reference.gpu = "H100-SXM";
    const AccountingResult h100 = account(reference, *GpuCatalog::builtIn().find("H100-SXM"));
    QVERIFY(r.memory.total.value > 0);
    QCOMPARE(r.memory.total.value, h100.memory.total.value);
    QCOMPARE(r.peakMemory.value, h100.peakMemory.value);
    QCOMPARE(r.fits, r.peakMemory.value <= part.memoryBytes);
    QVERIFY(r.maxBatch);
    QVERIFY(r.maxParameters.value > 0);

    const bool hasPeak = !effectiveDensePeak(part, r.precision.compute).refused;
    QCOMPARE(r.trainingSeconds.has_value(), hasPeak);
    QCOMPARE(r.timeUnavailable.empty(), hasPeak);
    QVERIFY(r.trainingFlops);
    QCOMPARE(r.trainingFlops->value, h100.trainingFlops->value);
}

void TestCapabilityRules::lectureRunCost() {
    // The lecture: 70B, 15T tokens, 1024 H100s, MFU 0.5 → ≈144 days; at $2/GPU-h, TDP 700 W, PUE 1 and
    // the default U.S. grid: ≈3.54e6 GPU-hours, ≈$7.07e6, ≈2,476 MWh, ≈959 t CO2eq.
    AccountingInput in = findSetupPreset("70b-15t-1024-h100")->input;
    in.cost.pricePerGpuHour = 2;
    QVERIFY(validate(in).ok());
    const AccountingResult r = account(in, *GpuCatalog::builtIn().find("H100-SXM"));
    QVERIFY(r.runCost);
    QCOMPARE(r.runCost->gpuHours.value, 1024 * r.trainingSeconds->value / 3600);
    QVERIFY(std::abs(r.trainingDays->value - 143.94) < 0.01);
    QVERIFY(std::abs(r.runCost->dollars->value - 7.075e6) < 0.001e6);
    QVERIFY(std::abs(r.runCost->energyJoules->value / 3.6e9 - 2476.2) < 0.1);
    QVERIFY(std::abs(r.runCost->emissionsKg->value / 1000 - 959.2) < 0.1);
    in.cost.pue = 0.5;
    QCOMPARE(QString::fromStdString(validate(in).field), QString("pue"));
}

void TestCapabilityRules::inferenceWarnings() {
    InferenceInput in;
    in.gpu = "V100-16GB";
    in.weights = WeightFormat::bf16;
    const std::vector<std::string> warnings =
        capabilityWarnings(in, *GpuCatalog::builtIn().find("V100-16GB"));
    QCOMPARE(warnings.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(warnings[0]).contains("Volta"));
    in.gpu = "H100-SXM";
    QVERIFY(capabilityWarnings(in, *GpuCatalog::builtIn().find("H100-SXM")).empty());
}

// Qwen3 8B's config.json says max_position_embeddings 40960 (resources/models/qwen3-8b.json, read as the
// model's seq); the Inference page's context slider goes to 1e6. Past 40960 the page and `infer` say so;
// nothing is refused (rotary positions compute at any length) and no number changes.
void TestCapabilityRules::contextPastTheModelWarns_data() {
    QTest::addColumn<double>("context");
    QTest::addColumn<bool>("warns");
    QTest::newRow("the config's own 40960") << 40960.0 << false;
    QTest::newRow("one past it") << 40961.0 << true;
    QTest::newRow("the slider's top") << 1048576.0 << true;
    QTest::newRow("a short prompt") << 1024.0 << false;
}

void TestCapabilityRules::contextPastTheModelWarns() {
    QFETCH(double, context);
    QFETCH(bool, warns);
    const ZooModel* qwen = findZooModel("qwen3-8b");
    QVERIFY(qwen);
    InferenceInput in;
    in.model = zooModelConfig(*qwen).config->model;
    QCOMPARE(in.model.seq, 40960.0);
    in.context = context;
    const GpuSpec& h100 = *GpuCatalog::builtIn().find("H100-SXM");
    const std::optional<std::string> past = contextPastModelWarning(in);
    QCOMPARE(past.has_value(), warns);
    QCOMPARE(napkin::inferenceWarnings(in, h100).size(), std::size_t(warns ? 1 : 0)); // none from the H100 itself
    if (warns)
        QVERIFY(QString::fromStdString(*past).contains("past the model's 40960 positions"));
    // Learned positions (GPT-2's 1024-row table) are refused by validateInference(), not warned about.
    InferenceInput gpt2;
    gpt2.model = zooModelConfig(*findZooModel("gpt2")).config->model;
    gpt2.context = 4096;
    QVERIFY(!contextPastModelWarning(gpt2));
}

QTEST_APPLESS_MAIN(TestCapabilityRules)
#include "tst_capability_rules.moc"
