// SPDX-License-Identifier: GPL-3.0-or-later
// The preset boxes' families (preset_groups.h): every setup, published model and shipped config appears
// exactly once, in a named family (none under "Other"), the families in their fixed order; namedModel
// finds what --model-preset finds.
#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/preset_groups.h"
#include "engine/accounting/setup_presets.h"

#include <QtTest>

#include <algorithm>
#include <string>

using namespace napkin;

namespace {

QStringList idsIn(const std::vector<PresetGroup>& groups) {
    QStringList ids;
    for (const PresetGroup& g : groups)
        for (const PresetEntry& e : g.entries)
            ids << QString::fromUtf8(e.id.data(), static_cast<qsizetype>(e.id.size()));
    return ids;
}

QString familyOf(const std::vector<PresetGroup>& groups, std::string_view id) {
    for (const PresetGroup& g : groups)
        for (const PresetEntry& e : g.entries)
            if (e.id == id)
                return QString::fromUtf8(g.family.data(), static_cast<qsizetype>(g.family.size()));
    return {};
}

// The groups follow presetFamilies() and none is empty or "Other".
void checkOrder(const std::vector<PresetGroup>& groups) {
    const auto families = presetFamilies();
    auto last = families.begin();
    for (const PresetGroup& g : groups) {
        QVERIFY2(!g.entries.empty(), std::string(g.family).c_str());
        const auto at = std::find(last, families.end(), g.family);
        QVERIFY2(at != families.end(), std::string(g.family).c_str()); // out of order, or "Other"
        last = at + 1;
    }
}

} // namespace

class TestPresetGroups : public QObject {
    Q_OBJECT
private slots:
    void accountingBoxHoldsEverySetupAndConfigOnce();
    void inferenceBoxHoldsEveryModelAndConfigOnce();
    void families_data();
    void families();
    void namedModelIsWhatModelPresetReads();
};

void TestPresetGroups::accountingBoxHoldsEverySetupAndConfigOnce() {
    const auto groups = accountingPresetGroups();
    checkOrder(groups);
    QStringList expected;
    for (const SetupPreset& p : setupPresets())
        expected << QString::fromUtf8(p.id.data(), static_cast<qsizetype>(p.id.size()));
    for (const ZooModel& z : zooModels())
        expected << QString::fromUtf8(z.id.data(), static_cast<qsizetype>(z.id.size()));
    QStringList ids = idsIn(groups);
    QCOMPARE(ids.size(), expected.size());
    ids.sort();
    expected.sort();
    QCOMPARE(ids, expected);
}

void TestPresetGroups::inferenceBoxHoldsEveryModelAndConfigOnce() {
    const auto groups = inferencePresetGroups();
    checkOrder(groups);
    QStringList expected;
    for (const ModelPreset& p : modelPresets())
        expected << QString::fromUtf8(p.id.data(), static_cast<qsizetype>(p.id.size()));
    for (const ZooModel& z : zooModels())
        expected << QString::fromUtf8(z.id.data(), static_cast<qsizetype>(z.id.size()));
    QStringList ids = idsIn(groups);
    QCOMPARE(ids.size(), expected.size());
    ids.sort();
    expected.sort();
    QCOMPARE(ids, expected);
    for (const PresetGroup& g : groups)
        for (const PresetEntry& e : g.entries)
            QVERIFY(e.source != PresetSource::setup); // the Inference page serves models, not setups
}

void TestPresetGroups::families_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("accounting");
    QTest::addColumn<QString>("family");
    QTest::newRow("the lecture's 70B") << "70b-15t-1024-h100" << true << "Lecture questions";
    QTest::newRow("cruncher") << "cruncher" << true << "Lecture questions";
    QTest::newRow("GPT-3 setup") << "gpt3-175b" << true << "GPT-2 / GPT-3";
    QTest::newRow("GPT-2 config") << "gpt2" << true << "GPT-2 / GPT-3";
    QTest::newRow("LoRA setup") << "llama3-8b-lora-h100" << true << "Llama";
    QTest::newRow("Llama 2 config") << "llama-2-7b" << true << "Llama";
    QTest::newRow("Mixtral setup") << "mixtral-8x7b" << true << "Mistral / Mixtral";
    QTest::newRow("Mistral config") << "mistral-7b-v0.1" << true << "Mistral / Mixtral";
    QTest::newRow("Qwen3 MoE config") << "qwen3-30b-a3b" << true << "Qwen";
    QTest::newRow("Gemma 2 config") << "gemma-2-9b" << true << "Gemma";
    QTest::newRow("DeepSeek-V3 config") << "deepseek-v3" << true << "DeepSeek";
    QTest::newRow("GPT-2 XL model") << "gpt2-xl" << false << "GPT-2 / GPT-3";
    QTest::newRow("Llama 3 405B model") << "llama3-405b" << false << "Llama";
    QTest::newRow("DeepSeek-V3 served") << "deepseek-v3" << false << "DeepSeek";
}

void TestPresetGroups::families() {
    QFETCH(QString, id);
    QFETCH(bool, accounting);
    QFETCH(QString, family);
    const auto groups = accounting ? accountingPresetGroups() : inferencePresetGroups();
    QCOMPARE(familyOf(groups, id.toStdString()), family);
}

void TestPresetGroups::namedModelIsWhatModelPresetReads() {
    QCOMPARE(namedModel("llama3-70b"), std::optional<ModelSpec>(findModelPreset("llama3-70b")->model));
    QCOMPARE(namedModel("DeepSeek-V3"),
             std::optional<ModelSpec>(
                 zooModelConfig(*findZooModel("deepseek-v3")).config->model)); // ids ignore case
    QCOMPARE(namedModel("70b-15t-1024-h100"), std::nullopt);                   // a setup, not a model
    QCOMPARE(namedModel(""), std::nullopt);
}

QTEST_MAIN(TestPresetGroups)
#include "tst_preset_groups.moc"
