// SPDX-License-Identifier: GPL-3.0-or-later
// The Inference page: driving the real controls changes the charts and the answers to exactly the
// engine's values; a refused combination is shown next to its control while the last good result stays;
// the page's scenario round-trips; a valid change is announced through settingChanged.
#include "app/inference/inference_answers.h"
#include "app/inference/inference_controls.h"
#include "app/inference/inference_page.h"
#include "engine/models/model_presets.h"
#include "engine/numerics/quantity_format.h"
#include "tests/support/widget_input.h"
#include "widgets/charts/decode_throughput_chart.h"
#include "widgets/charts/inference_memory_chart.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/log_slider_field.h"
#include "widgets/controls/number_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTextBrowser>
#include <QtTest>

using namespace napkin;

namespace {

InferenceResult expected(const InferenceInput& in) {
    return accountInference(in, *GpuCatalog::builtIn().find(in.gpu));
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// The charts and the answers show exactly the engine's result for the controls' input.
void checkShows(const InferencePage& page) {
    const InferenceInput in = page.controls()->input();
    QVERIFY(validateInference(in).ok());
    const InferenceResult r = expected(in);
    const InferenceMemoryChartData& m = page.memoryChart()->data();
    QCOMPARE(m.segments[0].bytes, r.memory.weights.value);
    QCOMPARE(m.segments[1].bytes, r.memory.kvCache.value);
    QCOMPARE(m.segments[2].bytes, r.memory.activations.value);
    QCOMPARE(m.segments[1].formula, q(r.memory.kvCache.formula));
    QCOMPARE(m.capacityBytes, r.usableBytes.value); // judged as training is: the usable memory
    QCOMPARE(m.usableCapacity, r.overheads.basis == MemoryBasis::usable);
    QCOMPARE(m.overheadBytes, r.overheads.totalBytes);
    QCOMPARE(m.fits, r.fits);
    const DecodeThroughputChartData& t = page.throughputChart()->data();
    QCOMPARE(t.current.batch, in.batch);
    QCOMPARE(t.current.tokensPerSecond, r.decodeTokensPerSecond.value);
    QCOMPARE(t.maxBatch, r.maxBatch.value);
    const InferenceAnswers* a = page.answers();
    QCOMPARE(a->formulaText(QStringLiteral("kvCache")), q(r.kvCacheBytes.formula));
    QCOMPARE(a->formulaText(QStringLiteral("tokensPerSecond")), q(r.decodeTokensPerSecond.formula));
    QVERIFY(a->valueText(QStringLiteral("tokensPerSecond"))
                .startsWith(q(formatNumber(r.decodeTokensPerSecond.value))));
    QCOMPARE(a->formulaText(QStringLiteral("maxBatch")), q(r.maxBatch.formula));
    QCOMPARE(a->valueText(QStringLiteral("maxContext")), q(formatNumber(r.maxContext.value)));
    QVERIFY(a->errorText().isEmpty());
}

} // namespace

class TestInferencePage : public QObject {
    Q_OBJECT
private slots:
    void howIsThisComputed();
    void greyedPromptShowsTheContext();
    void freshPageIsLlama8bOnOneH100();
    void slidersChangeTheAnswers();
    void badGroupSizeShowsMessageAndKeepsResult();
    void scenarioRoundTrips();
    void settingChangedCarriesTheValidInput();
    void memoryBasisJudgesFits();
};

// "Fits" as training judges it (tst_inference_accounting.cpp, maxBatchFormula): Llama 3 8B at 8192 tokens
// on one H100 SXM, 43 sequences against the usable 81,559 MiB less one cuBLAS and one cuBLASLt workspace;
// 39 against the datasheet's 80e9 B with no overheads.
void TestInferencePage::memoryBasisJudgesFits() {
    InferencePage page;
    QCOMPARE(page.controls()->memoryBasisBox()->currentData().toString(), QStringLiteral("usable"));
    QCOMPARE(page.memoryChart()->data().capacityBytes, 85520809984.0);
    QVERIFY(page.memoryChart()->data().usableCapacity);
    QCOMPARE(page.throughputChart()->data().maxBatch, 43.0);
    QVERIFY(page.answers()->formulaText(QStringLiteral("fits")).contains(QStringLiteral("usable")));
    page.controls()->memoryBasisBox()->setCurrentIndex(
        page.controls()->memoryBasisBox()->findData(QStringLiteral("datasheet")));
    QCOMPARE(int(page.controls()->input().overheads.basis), int(MemoryBasis::datasheet));
    QCOMPARE(page.memoryChart()->data().capacityBytes, 80e9);
    QVERIFY(!page.memoryChart()->data().usableCapacity);
    QCOMPARE(page.memoryChart()->data().overheadBytes, 0.0);
    QCOMPARE(page.throughputChart()->data().maxBatch, 39.0);
    checkShows(page);
    // The basis goes into the scenario and back.
    InferencePage other;
    other.applyScenario(page.scenario());
    QCOMPARE(int(other.controls()->input().overheads.basis), int(MemoryBasis::datasheet));
}

// The figures: 131,072 KV bytes per token, 1 GiB per sequence at 8192 tokens; batch 1 decode
// memory bound.
void TestInferencePage::freshPageIsLlama8bOnOneH100() {
    InferencePage page;
    checkShows(page);
    const InferenceAnswers* a = page.answers();
    QVERIFY(a->valueText(QStringLiteral("kvPerToken")).contains(QStringLiteral("131072 B")));
    QVERIFY(a->valueText(QStringLiteral("kvPerSequence"))
                .contains(q(formatBytes(1073741824.0, ByteUnits::binary))));
    QVERIFY(a->valueText(QStringLiteral("intensity")).endsWith(QStringLiteral("memory bound")));
    QVERIFY(!page.throughputChart()->data().crossoverBatch);
    QVERIFY(page.throughputChart()->noteText().contains(QStringLiteral("memory bound at every B")));
}

void TestInferencePage::slidersChangeTheAnswers() {
    InferencePage page;
    InferenceControls* c = page.controls();
    const QString before = page.answers()->valueText(QStringLiteral("tokensPerSecond"));
    // The batch slider, dragged: B moves, tokens/s follow.
    QSlider* batch = c->batchSlider()->slider();
    batch->setValue(batch->maximum() / 2); // √1e9 ≈ 31,600 on the 1 … 1e9 log slider (inference_knobs.h)
    QCOMPARE(c->input().batch, 31600.0);
    checkShows(page);
    QVERIFY(page.answers()->valueText(QStringLiteral("tokensPerSecond")) != before);
    // The context, typed: 128 tokens, where decoding turns compute bound at a large batch.
    typeInto(c->batchSlider()->field(), QStringLiteral("1024"));
    typeInto(c->contextSlider()->field(), QStringLiteral("128"));
    QCOMPARE(c->input().context, 128.0);
    checkShows(page);
    c->promptIsContextBox()->setChecked(false); // its own prompt starts within the 128-token context
    QCOMPARE(c->input().prompt, std::optional<double>(128));
    QVERIFY(page.lastError().isEmpty());
    c->promptIsContextBox()->setChecked(true);
    QVERIFY(page.throughputChart()->data().crossoverBatch);
    QVERIFY(page.answers()->valueText(QStringLiteral("intensity")).endsWith(QStringLiteral("compute bound")));
    QVERIFY(page.answers()
                ->formulaText(QStringLiteral("kvPerSequence"))
                .startsWith(QStringLiteral("S·kv_per_token = 128 × 131072")));
    // The other controls too: Llama 3 70B in int4 on 4 GPUs.
    choose(c->presetBox(), QStringLiteral("llama3-70b"));
    choose(c->weightsBox(), QStringLiteral("int4"));
    c->gpusBox()->setValue(4);
    checkShows(page);
    QVERIFY(page.memoryChart()->data().gpuLabel.contains(QStringLiteral("4 × H100-SXM")));
    // A new model starts at its own context: GPT-2's 1024 learned positions, not the 8192 shown before.
    choose(c->presetBox(), QStringLiteral("gpt2-small"));
    QCOMPARE(c->input().context, 1024.0);
    QVERIFY(page.lastError().isEmpty());
    checkShows(page);
}

// With "prompt = context" ticked the greyed prompt field shows the context the formulas use, and
// unticking gives back the prompt the user had chosen (within the context).
void TestInferencePage::greyedPromptShowsTheContext() {
    InferencePage page;
    InferenceControls* c = page.controls();
    c->promptIsContextBox()->setChecked(false);
    typeInto(c->contextSlider()->field(), QStringLiteral("8192"));
    typeInto(c->promptSlider()->field(), QStringLiteral("1000"));
    c->promptIsContextBox()->setChecked(true);
    QVERIFY(!c->promptSlider()->isEnabled());
    QCOMPARE(c->promptSlider()->value(), 8192.0);
    typeInto(c->contextSlider()->field(), QStringLiteral("2048"));
    QCOMPARE(c->promptSlider()->value(), 2048.0);
    QCOMPARE(c->input().prompt, std::nullopt);
    c->promptIsContextBox()->setChecked(false);
    QCOMPARE(c->promptSlider()->value(), 1000.0);
    QCOMPARE(c->input().prompt, std::optional<double>(1000));
    QCOMPARE(c->values().promptShown, 1000.0);
}

// "How is this computed?" on Inference: the engine's formulas with their values, and the verdict.
void TestInferencePage::howIsThisComputed() {
    InferencePage page;
    ExplainPane* pane = page.explainPane();
    QVERIFY(pane);
    const napkin::InferenceResult& r = *page.lastResult();
    const QString html = pane->html();
    for (const std::string* formula : {&r.kvCacheBytesPerToken.formula, &r.decodeSecondsPerToken.formula,
                                       &r.arithmeticIntensity.formula, &r.prefillSeconds.formula})
        QVERIFY2(html.contains(QString::fromStdString(*formula).toHtmlEscaped()), formula->c_str());
    QVERIFY(html.contains(QStringLiteral("memory-bound"))); // batch 1 decode reads more than it computes
    typeInto(page.controls()->batchSlider()->field(), QStringLiteral("4096"));
    QVERIFY(pane->html() != html);
}

void TestInferencePage::badGroupSizeShowsMessageAndKeepsResult() {
    InferencePage page;
    InferenceControls* c = page.controls();
    choose(c->weightsBox(), QStringLiteral("int4"));
    QVERIFY(c->groupSizeBox()->isEnabled());
    checkShows(page);
    const InferenceResult good = *page.lastResult();
    const double shownWeights = page.memoryChart()->data().segments[0].bytes;
    c->groupSizeBox()->setValue(100); // does not divide d_model 4096
    QVERIFY(!page.lastError().isEmpty());
    QCOMPARE(c->fieldErrorControl(), static_cast<QWidget*>(c->groupSizeBox()));
    QVERIFY(c->fieldErrorText().contains(QStringLiteral("must divide d-model (4096), got 100")));
    QVERIFY(page.answers()->errorText().contains(QStringLiteral("group-size")));
    QCOMPARE(page.lastResult()->weightsBytes.value, good.weightsBytes.value);
    QCOMPARE(page.memoryChart()->data().segments[0].bytes, shownWeights);
    // What still shows the last valid result is greyed with the reason, never read as the current setup.
    for (ChartView* chart : std::initializer_list<ChartView*>{page.memoryChart(), page.throughputChart()})
        QVERIFY2(chart->staleReason().contains(QStringLiteral("group-size")),
                 qPrintable(chart->staleReason()));
    QVERIFY(page.answers()->isStale());
    QVERIFY(!page.explainPane()->browser()->isEnabled());
    // Fixing it clears the message and recomputes.
    c->groupSizeBox()->setValue(64);
    QVERIFY(page.lastError().isEmpty());
    QVERIFY(c->fieldErrorText().isEmpty());
    QVERIFY(page.memoryChart()->staleReason().isEmpty() && page.throughputChart()->staleReason().isEmpty());
    QVERIFY(!page.answers()->isStale());
    QVERIFY(page.explainPane()->browser()->isEnabled());
    checkShows(page);
    QVERIFY(page.lastResult()->weightsBytes.value > good.weightsBytes.value); // more scales
}

void TestInferencePage::scenarioRoundTrips() {
    InferenceScenario s;
    s.preset = "llama3-70b";
    s.input.model = findModelPreset("llama3-70b")->model;
    s.input.gpus = 4;
    s.input.context = 4096;
    s.input.batch = 16;
    s.input.prompt = 1000;
    s.promptShown = 1000;
    s.input.weights = WeightFormat::fp8;
    s.input.kvCache = StorageType::fp8;
    s.input.gpu = "H200";
    s.input.groupSize = 64;
    InferencePage page;
    QVERIFY(page.applyScenario(s).isEmpty());
    QCOMPARE(page.scenario().input, s.input);
    QCOMPARE(page.scenario(), s);
    QVERIFY(!page.controls()->promptIsContextBox()->isChecked());
    QVERIFY(!page.controls()->groupSizeBox()->isEnabled()); // fp8 has no group scales
    checkShows(page);
    // And back to a fresh page's values.
    page.applyScenario(InferenceScenario{});
    QCOMPARE(page.scenario(), InferenceScenario{});
}

void TestInferencePage::settingChangedCarriesTheValidInput() {
    InferencePage page;
    QSignalSpy spy(&page, &InferencePage::settingChanged);
    typeInto(page.controls()->contextSlider()->field(), QStringLiteral("2048"));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<InferenceInput>(), page.controls()->input());
    page.controls()->gpusBox()->setValue(3); // 32 heads are not split 3 ways: refused, not announced
    QCOMPARE(spy.count(), 1);
    QCOMPARE(page.controls()->fieldErrorControl(), static_cast<QWidget*>(page.controls()->gpusBox()));
    page.controls()->gpusBox()->setValue(2);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).value<InferenceInput>().gpus, 2.0);
    // The result travels with it: the roofline page draws these numbers rather than accounting again.
    const auto sent = spy.at(1).at(1).value<InferenceResult>();
    QVERIFY(page.lastResult());
    QCOMPARE(sent.decodeFlopsPerSecondPerGpu.value, page.lastResult()->decodeFlopsPerSecondPerGpu.value);
    QCOMPARE(sent.prefillArithmeticIntensity.value, page.lastResult()->prefillArithmeticIntensity.value);
}

QTEST_MAIN(TestInferencePage)
#include "tst_inference_page.moc"
