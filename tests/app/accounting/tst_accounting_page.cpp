// SPDX-License-Identifier: GPL-3.0-or-later
// The live accounting page: driving the real controls changes the charts and the answers to exactly
// the engine's values, and the lecture's presets show the lecture's numbers.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/accounting/explain_accounting.h"
#include "app/accounting/overhead_controls.h"
#include "app/accounting/parallelism_controls.h"
#include "app/accounting/presets.h"
#include "app/accounting/reserved_line.h"
#include "app/accounting/sharding_controls.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/model/architecture_controls.h"
#include "engine/accounting/memory_overhead_knobs.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/models/model_presets.h"
#include "engine/allocator/step_reserved.h"
#include "engine/report/accounting_report.h"
#include "tests/support/widget_input.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/log_slider_field.h"
#include "widgets/controls/number_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>
#include <cmath>
#include <optional>

using namespace napkin;

namespace {

AccountingResult expected(const AccountingPage& page) {
    const AccountingInput in = page.controls()->input();
    [&] { QVERIFY2(validate(in).ok(), validate(in).message.c_str()); }();
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

// The chart's bars are exactly the engine's memory split.
void checkMemoryChart(const AccountingPage& page, const AccountingResult& r) {
    const MemoryChartData& d = page.memoryChart()->data();
    QCOMPARE(d.segments[0].bytes, r.memory.parameters.value);
    QCOMPARE(d.segments[1].bytes, r.memory.gradients.value);
    QCOMPARE(d.segments[2].bytes, r.memory.masterWeights.value);
    QCOMPARE(d.segments[3].bytes, r.memory.optimizerState.value);
    QCOMPARE(d.segments[4].bytes, r.memory.activations.value);
    QCOMPARE(d.segments[0].formula, QString::fromStdString(r.memory.parameters.formula));
    QCOMPARE(d.capacityBytes, r.usableBytes.value); // what fits is judged against (memory_overheads.h)
    QCOMPARE(d.fits, r.fits);
}

// The timeline chart is exactly the engine's predicted step: every event, every component, and the sum.
void checkTimelineChart(const AccountingPage& page, const AccountingInput& in, const AccountingResult& r) {
    const MemoryTimeline t = memoryTimeline(in, r);
    const MemoryTimelineChartData& d = page.timelineChart()->data();
    QCOMPARE(d.events.size(), static_cast<qsizetype>(t.events.size()));
    for (int i = 0; i < d.events.size(); ++i) {
        const StepBytes& b = t.events[static_cast<std::size_t>(i)].bytes;
        QCOMPARE(d.events[i],
                 QString::fromStdString(stepEventName(t.events[static_cast<std::size_t>(i)].event)));
        QCOMPARE(d.bytes[i], (std::array<double, 6>{b.parameters, b.gradients, b.masterWeights,
                                                    b.optimizerState, b.activations, b.temporary}));
    }
    QCOMPARE(d.peakIndex(), static_cast<int>(t.peakIndex));
    QCOMPARE(d.totalAt(d.peakIndex()), t.peakBytes);
    QCOMPARE(d.sumBytes(), r.memory.total.value);
    // The line the memory bar draws, in the same basis: usable memory, or the datasheet's in the lecture's.
    QCOMPARE(d.capacityBytes, r.usableBytes.value);
    QCOMPARE(d.capacityBytes, page.memoryChart()->data().capacityBytes);
    QCOMPARE(d.usableCapacity, r.overheads.basis == MemoryBasis::usable);
    QVERIFY(d.measured.isEmpty()); // a prediction only
    QVERIFY(d.run.isEmpty());
}

} // namespace

class TestAccountingPage : public QObject {
    Q_OBJECT
private slots:
    void presets_data();
    void presets();
    void cruncherCharts();
    void cruncherTimeline();
    void timelineDrawsThePeakOfLongSteps();
    void timelineDrawsPredictedReserved();
    void fitsVerdictIsTheCliJsons_data();
    void fitsVerdictIsTheCliJsons();
    void timelineSaysWhetherItIsEventByEvent();
    void typingParametersUpdatesEverything();
    void draggingSliderUpdatesEverything();
    void controlsChangeTheLedger_data();
    void controlsChangeTheLedger();
    void badTextIsRefused();
    void fractionalCountsRefusedInTheField_data();
    void fractionalCountsRefusedInTheField();
    void editedPresetSaysModified();
    void invalidCombinationKeepsLastCharts();
    void invalidInputGreysWhatNoLongerMatches();
    void denseChartAndNoteTellOneStory();
    void gibSwitch();
    void tooltipsCarryFormulas();
    void keyboardOrder();
    void settingsRoundTrip();
    void familyAndKvHeadsChangeTheCount();
    void parallelismSplitsTheMemory();
    void shardingAndStagesAreControls();
    void inapplicableControlsSayWhy();
    void refusedLayoutShowsNextToTheControl();
    void noFitSaysWhatWould();
    void longestSequenceIsAnswered();
    void explainShowsTheLedgers();
    void activationProfileIsAControl();
    void optimizerImplementationSurvivesTheControls();
    void overheadsAreControlsAndAnswers();
    void overheadRowsAreTheTable();
    void trainingFieldsTakeWhatTheCliTakes();
};

void TestAccountingPage::presets_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text"); // must appear in the answer's value
    QTest::newRow("70B on 15T tokens, 1024 H100: ≈144 days") << "70b-15t-1024-h100"
                                                             << "trainingTime"
                                                             << "143.9 days";
    QTest::newRow("70B on 15T tokens: GPU-days 143.94 × 1024") << "70b-15t-1024-h100"
                                                               << "gpuDays"
                                                               << "147,396";
    QTest::newRow("70B on 15T tokens: 6.3e24 FLOPs") << "70b-15t-1024-h100"
                                                     << "trainingFlops"
                                                     << "6.30e24 FLOPs";
    QTest::newRow("largest on 8 H100: 16 B/param") << "largest-8-h100"
                                                   << "bytesPerParameter"
                                                   << "4 + 4 + 4 + 4 = 16 B";
    QTest::newRow("largest on 8 H100: 40e9 params") << "largest-8-h100"
                                                    << "maxParameters"
                                                    << "40,000,000,000 params";
    QTest::newRow("Cruncher: 496 bytes") << "cruncher"
                                         << "memoryPerGpu"
                                         << "496 B";
    QTest::newRow("Cruncher: 432 FLOPs per step") << "cruncher"
                                                  << "flopsPerStep"
                                                  << "432 FLOPs";
    QTest::newRow("GPT-2 small: 124,439,808 params") << "gpt2-small"
                                                     << "parameters"
                                                     << "124,439,808";
    QTest::newRow("GPT-3: 174.6e9 params") << "gpt3-175b"
                                           << "parameters"
                                           << "174,604,259,328";
    QTest::newRow("Llama 3 8B: 8,030,261,248 params") << "llama3-8b"
                                                      << "parameters"
                                                      << "8,030,261,248";
    QTest::newRow("Llama 3 70B: bubble 3/11") << "llama3-70b"
                                              << "layout"
                                              << "bubble 0.2727";
    QTest::newRow("Llama 3 405B: 405,853,388,800") << "llama3-405b"
                                                   << "parameters"
                                                   << "405,853,388,800";
    QTest::newRow("Mixtral: 12.9B active") << "mixtral-8x7b"
                                           << "activeParameters"
                                           << "12,879,925,248";
}

void TestAccountingPage::presets() {
    QFETCH(QString, preset);
    QFETCH(QString, key);
    QFETCH(QString, text);
    AccountingPage page;
    const Preset* p = findPreset(preset);
    QVERIFY(p);
    // Pick it the way a user does: through the preset box.
    const int index = page.presetBox()->findData(preset);
    QVERIFY(index >= 0);
    page.presetBox()->setCurrentIndex(index);
    emit page.presetBox()->activated(index);
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QVERIFY(page.lastResult());
    const QString value = page.answers()->valueText(key);
    QVERIFY2(value.contains(text), qPrintable(key + QStringLiteral(": ") + value));
    QVERIFY2(!page.answers()->formulaText(key).isEmpty(), "every answer carries its formula");
    checkMemoryChart(page, expected(page));

    // The numbers themselves, not only their text.
    const AccountingResult& r = *page.lastResult();
    if (preset == QStringLiteral("70b-15t-1024-h100")) {
        QCOMPARE(qRound(r.trainingDays->value), 144);
        QCOMPARE(r.trainingFlops->value, 6.3e24);
    } else if (preset == QStringLiteral("largest-8-h100")) {
        QCOMPARE(r.bytesPerParameter.total, 16.0);
        QCOMPARE(r.maxParameters.value, 40e9);
    } else if (preset == QStringLiteral("cruncher")) {
        QCOMPARE(r.memory.total.value, 496.0);
        QCOMPARE(r.flopsPerStep.total, 432.0);
    } else if (preset == QStringLiteral("gpt2-small")) {
        QCOMPARE(r.parameters.total, 124439808.0);
    } else if (preset == QStringLiteral("gpt3-175b")) {
        QCOMPARE(*page.controls()->input().trainingTokens, 300e9);
    }
}

void TestAccountingPage::cruncherCharts() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    const MemoryChartData& m = page.memoryChart()->data();
    // params 36, grads 36, AdaGrad state 36, activations B·D·L = 16 elements, all fp32.
    QCOMPARE(m.segments[0].bytes, 144.0);
    QCOMPARE(m.segments[1].bytes, 144.0);
    QCOMPARE(m.segments[2].bytes, 0.0);
    QCOMPARE(m.segments[3].bytes, 144.0);
    QCOMPARE(m.segments[4].bytes, 64.0);
    QCOMPARE(m.totalBytes(), 496.0);
    // 496 B against 80 GB: the axis zooms to the bar and the capacity becomes a note.
    QVERIFY(page.memoryChart()->capacityOffScale());
    const FlopChartData& f = page.flopChart()->data();
    QCOMPARE(f.phases.size(), std::size_t(3));
    QCOMPARE(f.phases[0].flops, 144.0);
    QCOMPARE(f.phases[1].flops, 288.0);
    QCOMPARE(f.phases[2].flops, 0.0);
    QCOMPARE(f.components.size(), std::size_t(3));
    QCOMPARE(f.components[0].label, QStringLiteral("layer 1"));
    QCOMPARE(f.components[0].flops, 64.0);
    QCOMPARE(f.components[1].flops, 64.0);
    QCOMPARE(f.components[2].label, QStringLiteral("head"));
    QCOMPARE(f.components[2].flops, 16.0);
}

// The lecture's Cruncher over one steady step (tests/engine/accounting/tst_memory_timeline.cpp by hand):
// totals per event, the peak 464 B at the backward of layer 2, and the 496-byte sum beside it.
void TestAccountingPage::cruncherTimeline() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    const MemoryTimelineChartData& d = page.timelineChart()->data();
    const QVector<double> totals{288, 320, 352, 360, 368, 408, 464, 464, 432, 288};
    QCOMPARE(d.events.size(), totals.size());
    for (int i = 0; i < totals.size(); ++i)
        QCOMPARE(d.totalAt(i), totals[i]);
    QCOMPARE(d.events[6], QStringLiteral("backward layer 2"));
    QCOMPARE(d.phases[6], QStringLiteral("backward"));
    QCOMPARE(d.peakIndex(), 6);
    QCOMPARE(page.timelineChart()->peakText(), QStringLiteral("peak 464 B at backward layer 2"));
    QCOMPARE(page.answers()->valueText(QStringLiteral("peakOverStep")),
             QStringLiteral("464 B at backward layer 2"));
    QVERIFY(page.answers()
                ->formulaText(QStringLiteral("peakOverStep"))
                .endsWith(QStringLiteral("144 + 80 + 0 + 144 + 32 + 64 = 464 B")));
    QCOMPARE(d.sumBytes(), 496.0);
    QVERIFY(page.timelineChart()->capacityOffScale()); // 464 B against 80 GB
    QCOMPARE(page.timelineChart()->drawnEvents().size(), totals.size());
    const QString tip = page.timelineChart()->tooltipFor(6);
    QVERIFY2(tip.contains(QStringLiteral("temporaries: 64 B")) && tip.contains(QStringLiteral("(464 B)")),
             qPrintable(tip));
    QCOMPARE(page.timelineChart()->eventAt(6.3), 6);
    QCOMPARE(page.timelineChart()->eventAt(-3), -1);
    checkTimelineChart(page, page.controls()->input(), expected(page));
    // The batch doubles the activations and the temporaries: the peak moves with them.
    typeInto(page.controls()->batchField(), QStringLiteral("4"));
    checkTimelineChart(page, page.controls()->input(), expected(page));
    QCOMPARE(page.timelineChart()->data().totalAt(6), 144.0 + 80 + 144 + 64 + 128);
}

// A step whose order is not modelled (a dense N-parameter model; a tensor-parallel transformer) has phases
// only, and the answers say so: its chart said "event by event" beside them. The Cruncher's is.
void TestAccountingPage::timelineSaysWhetherItIsEventByEvent() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("70b-15t-1024-h100")));
    QVERIFY(
        page.answers()->formulaText(QStringLiteral("peakOverStep")).contains(QStringLiteral("not modelled")));
    const QString phases = page.timelineChart()->xAxisTitle();
    QVERIFY2(!phases.contains(QStringLiteral("event by event")), qPrintable(phases));
    QVERIFY2(phases.contains(QStringLiteral("phase")), qPrintable(phases));
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    QVERIFY(!page.answers()
                 ->formulaText(QStringLiteral("peakOverStep"))
                 .contains(QStringLiteral("not modelled")));
    const QString events = page.timelineChart()->xAxisTitle();
    QVERIFY2(events.contains(QStringLiteral("event by event")), qPrintable(events));
}

// GPT-3 with full recompute has 295 events; a step of thousands of layers is thinned to kMostDrawn, and
// the thinning keeps the peak and both ends.
void TestAccountingPage::timelineDrawsThePeakOfLongSteps() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt3-175b")));
    checkTimelineChart(page, page.controls()->input(), expected(page));
    const MemoryTimelineChartData& d = page.timelineChart()->data();
    QCOMPARE(page.timelineChart()->drawnEvents().size(), d.events.size());
    const QVector<int> few = MemoryTimelineChart::eventsToDraw(d, 40);
    QVERIFY(few.size() <= 42);
    QVERIFY(few.contains(d.peakIndex()));
    QCOMPARE(few.front(), 0);
    QCOMPARE(few.back(), static_cast<int>(d.events.size()) - 1);
    QVERIFY(std::is_sorted(few.begin(), few.end()));
}

// The memory over one step draws what the caching allocator would hold reserved (issue 55: what nvidia-smi
// follows), event by event from the engine's simulation, named in the legend; at least what is allocated
// at every event; and not where the step's order is not modelled (a dense model's phases).
void TestAccountingPage::timelineDrawsPredictedReserved() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    QVERIFY(page.timelineChart()->data().reserved.isEmpty()); // simulated once the controls rest
    page.reservedLine()->flush();
    const AccountingInput in = page.controls()->input();
    const MemoryTimelineChartData& d = page.timelineChart()->data();
    QVERIFY(d.eventByEvent);
    const StepReserved engine = stepReserved(in, *page.lastResult());
    QVERIFY2(engine.error.empty(), engine.error.c_str());
    QCOMPARE(d.reserved.size(), d.events.size());
    for (qsizetype e = 0; e < d.reserved.size(); ++e) {
        QCOMPARE(d.reserved[e], engine.reservedBytes[static_cast<std::size_t>(e)]);
        QVERIFY2(d.reserved[e] >= d.totalAt(static_cast<int>(e)),
                 qPrintable(QStringLiteral("%1: reserved %2 < allocated %3")
                                .arg(d.events[e])
                                .arg(d.reserved[e])
                                .arg(d.totalAt(static_cast<int>(e)))));
    }
    QVERIFY2(page.timelineChart()->legendNames().contains(QStringLiteral("reserved (simulated allocator)")),
             qPrintable(page.timelineChart()->legendNames().join(QStringLiteral(", "))));
    // Another step drops the line until it is simulated again (never another setup's line over the areas);
    // a change that leaves the step as drawn (the training tokens) keeps it.
    page.controls()->tokensField()->setValue(2e12);
    QVERIFY(!page.timelineChart()->data().reserved.isEmpty());
    typeInto(page.controls()->batchField(), QStringLiteral("16"));
    QVERIFY(page.timelineChart()->data().reserved.isEmpty());
    QTRY_VERIFY(!page.timelineChart()->data().reserved.isEmpty()); // 100 ms after the last change

    page.applyPreset(*findPreset(QStringLiteral("70b-15t-1024-h100"))); // phases only
    QVERIFY(page.timelineChart()->data().reserved.isEmpty());
    QVERIFY(!page.timelineChart()->legendNames().contains(QStringLiteral("reserved (simulated allocator)")));
}

// The page's fits answer and memory bar give the verdict `napkin-cli account --json` gives (fits_verdict,
// fits_on, formulas.fits_verdict: accountingToJson, the one serializer both front ends use), from the one
// engine function (engine/allocator/fit_verdict.h). The hand-worked row (tst_step_reserved's
// fitsJudgedOnReserved, from c10/cuda/CUDACachingAllocator.cpp): the Cruncher (D 4, L 2, batch 2, AdaGrad)
// peaks at 464 B allocated, every request under 512 B, so round_size() gives 512-B blocks in the small pool,
// whose one segment is kSmallBuffer = 2097152 B; on a GPU of 1 MiB with no overhead line: allocated fits
// (464 ≤ 1048576), reserved does not (2097152 > 1048576): the page says NO.
void TestAccountingPage::fitsVerdictIsTheCliJsons_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("oneMiBGpu"); // the preset on a 1 MiB GPU, usable basis, no overhead line
    QTest::addColumn<QString>("fitsOn");
    QTest::addColumn<bool>("fits"); // the verdict
    QTest::newRow("cruncher on 1 MiB: allocated fits, reserved does not") << "cruncher" << true << "reserved" << false;
    QTest::newRow("gpt2-small: on reserved") << "gpt2-small" << false << "reserved" << true;
    QTest::newRow("70b-15t-1024-h100: phases only, on allocated") << "70b-15t-1024-h100" << false << "allocated" << true;
}

void TestAccountingPage::fitsVerdictIsTheCliJsons() {
    QFETCH(QString, preset);
    QFETCH(bool, oneMiBGpu);
    QFETCH(QString, fitsOn);
    QFETCH(bool, fits);
    AccountingPage page;
    page.applyPreset(*findPreset(preset));
    if (oneMiBGpu) {
        GpuSpec tiny = *GpuCatalog::builtIn().find("H100-SXM");
        tiny.id = "one-mib-gpu";
        tiny.name = "a test GPU of 1 MiB";
        tiny.memoryBytes = 1048576;
        tiny.driverMemoryBytes = 1048576;
        SessionGpuCatalog::instance().add(tiny);
        QVERIFY(sessionGpuCatalog().find("one-mib-gpu"));
        AccountingScenario values = page.controls()->fieldValues();
        values.input.gpu = "one-mib-gpu";
        values.input.overheads.basis = MemoryBasis::usable;
        values.input.overheads.cudaContext = values.input.overheads.libraryWorkspaces = false;
        values.input.overheads.allocatorRounding = values.input.overheads.ncclBuffers = false;
        values.input.overheads.fp8Copies = false;
        page.controls()->setFieldValues(values);
        page.recompute();
        QCOMPARE(QString::fromStdString(page.controls()->input().gpu), QStringLiteral("one-mib-gpu"));
        QVERIFY(page.lastResult()->fits); // on allocated: 464 B of 1 MiB
    }
    QVERIFY(page.lastFitVerdict());
    const FitVerdict& v = *page.lastFitVerdict();
    const AccountingInput in = page.controls()->input();
    const nlohmann::json doc = accountingToJson(in, *sessionGpuCatalog().find(in.gpu), *page.lastResult());
    QCOMPARE(QString::fromStdString(std::string(fitBasisName(v.basis))), fitsOn);
    QCOMPARE(v.fits, fits);
    QCOMPARE(doc["fits_verdict"].get<bool>(), v.fits);
    QCOMPARE(QString::fromStdString(doc["fits_on"].get<std::string>()), fitsOn);
    QCOMPARE(doc["formulas"]["fits_verdict"].get<std::string>(), v.formula);
    // The answer, its formula and the memory bar say it.
    const QString value = page.answers()->valueText(QStringLiteral("fits"));
    QVERIFY2(value.startsWith(fits ? QStringLiteral("yes") : QStringLiteral("NO")), qPrintable(value));
    QCOMPARE(value.contains(QStringLiteral("on reserved")), fitsOn == QStringLiteral("reserved"));
    QVERIFY(page.answers()->formulaText(QStringLiteral("fits")).startsWith(QString::fromStdString(v.formula)));
    QCOMPARE(page.memoryChart()->data().fits, fits);
}

void TestAccountingPage::typingParametersUpdatesEverything() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("70b-15t-1024-h100")));
    typeInto(page.controls()->parametersField()->field(), QStringLiteral("13B"));
    QCOMPARE(page.controls()->input().model.parameters, 13e9);
    const AccountingResult r = expected(page);
    checkMemoryChart(page, r);
    QCOMPARE(page.flopChart()->data().phases[0].flops, 2 * 13e9);
    QCOMPARE(page.answers()->valueText(QStringLiteral("parameters")), QStringLiteral("13,000,000,000"));
    QCOMPARE(page.answers()->formulaText(QStringLiteral("trainingFlops")),
             QString::fromStdString(r.trainingFlops->formula));
    // 13/70 of the 70B time.
    QCOMPARE(page.lastResult()->trainingDays->value, r.trainingDays->value);
    QVERIFY(qAbs(r.trainingDays->value - 143.94114067448285 * 13 / 70) < 1e-9);
}

void TestAccountingPage::draggingSliderUpdatesEverything() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("largest-8-h100")));
    QSlider* slider = page.controls()->parametersField()->slider();
    const double before = page.memoryChart()->data().segments[0].bytes;
    slider->setValue(600); // 1e9 parameters
    QCOMPARE(page.controls()->input().model.parameters, 1e9);
    checkMemoryChart(page, expected(page));
    checkTimelineChart(page, page.controls()->input(), expected(page));
    QCOMPARE(page.memoryChart()->data().segments[0].bytes, 1e9 * 4 / 8); // fp32, ZeRO-3 over 8 GPUs
    QVERIFY(page.memoryChart()->data().segments[0].bytes != before);
    // Past 40e9 the model no longer fits, and the chart says so.
    slider->setValue(900); // 1e12
    QVERIFY(!page.memoryChart()->data().fits);
    QVERIFY(page.answers()->valueText(QStringLiteral("fits")).startsWith(QStringLiteral("NO")));
}

void TestAccountingPage::controlsChangeTheLedger_data() {
    QTest::addColumn<int>("precision");
    QTest::addColumn<bool>("fp32Gradients");
    QTest::addColumn<int>("optimizer");
    QTest::addColumn<QString>("ledger");
    QTest::newRow("mixed-bf16 AdamW: 16 B") << int(PrecisionRecipe::mixedBf16) << false
                                            << int(OptimizerKind::adamw) << "2 + 2 + 4 + 4 + 4 = 16 B";
    QTest::newRow("mixed-bf16 AdamW, fp32 grads: 18 B")
        << int(PrecisionRecipe::mixedBf16) << true << int(OptimizerKind::adamw) << "2 + 4 + 4 + 4 + 4 = 18 B";
    QTest::newRow("fp32 SGD: 8 B") << int(PrecisionRecipe::fp32) << false << int(OptimizerKind::sgd)
                                   << "4 + 4 = 8 B";
    QTest::newRow("fp32 AdaGrad: 12 B")
        << int(PrecisionRecipe::fp32) << false << int(OptimizerKind::adagrad) << "4 + 4 + 4 = 12 B";
}

void TestAccountingPage::controlsChangeTheLedger() {
    QFETCH(int, precision);
    QFETCH(bool, fp32Gradients);
    QFETCH(int, optimizer);
    QFETCH(QString, ledger);
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("70b-15t-1024-h100")));
    choose(page.controls()->precisionBox(), precision);
    page.controls()->fp32GradientsCheck()->setChecked(fp32Gradients);
    choose(page.controls()->optimizerBox(), optimizer);
    QCOMPARE(page.answers()->valueText(QStringLiteral("bytesPerParameter")), ledger);
    checkMemoryChart(page, expected(page));
}

void TestAccountingPage::badTextIsRefused() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    const MemoryChartData before = page.memoryChart()->data();
    NumberField* batch = page.controls()->batchField();
    typeInto(batch, QStringLiteral("12Q"));
    QVERIFY2(batch->errorText().contains(QStringLiteral("keeping 2")), qPrintable(batch->errorText()));
    QVERIFY(!batch->errorText().isEmpty());
    QCOMPARE(batch->value(), 2.0);
    QCOMPARE(page.memoryChart()->data().totalBytes(), before.totalBytes());
    QCOMPARE(page.answers()->valueText(QStringLiteral("memoryPerGpu")), QStringLiteral("496 B"));
    // A good value afterwards clears the message and recomputes: activations double.
    typeInto(batch, QStringLiteral("4"));
    QVERIFY(batch->errorText().isEmpty());
    QCOMPARE(page.memoryChart()->data().segments[4].bytes, 128.0);
}

void TestAccountingPage::fractionalCountsRefusedInTheField_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("typed");
    QTest::newRow("batch 2.5") << QStringLiteral("batch") << QStringLiteral("2.5");
    QTest::newRow("layers 1.5") << QStringLiteral("layers") << QStringLiteral("1.5");
    QTest::newRow("width 3.25") << QStringLiteral("dim") << QStringLiteral("3.25");
}

// A count typed as a fraction is refused by the field, with one red message; the page never sees it, so
// no second, page-level error stacks under it.
void TestAccountingPage::fractionalCountsRefusedInTheField() {
    QFETCH(QString, field);
    QFETCH(QString, typed);
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    AccountingControls* c = page.controls();
    NumberField* f = field == QLatin1String("batch")    ? c->batchField()
                     : field == QLatin1String("layers") ? c->layersField()
                                                        : c->dimField();
    const double kept = f->value();
    typeInto(f, typed);
    QCOMPARE(f->value(), kept);
    QVERIFY2(f->errorText().contains(QStringLiteral("whole number")), qPrintable(f->errorText()));
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QCOMPARE(page.answers()->valueText(QStringLiteral("memoryPerGpu")), QStringLiteral("496 B"));
}

// A preset edited away from its values says so in the box; putting the value back clears the mark.
void TestAccountingPage::editedPresetSaysModified() {
    AccountingPage page;
    const Preset& cruncher = *findPreset(QStringLiteral("cruncher"));
    page.applyPreset(cruncher);
    QCOMPARE(page.presetBox()->currentText(), cruncher.name);
    typeInto(page.controls()->batchField(), QStringLiteral("4"));
    QCOMPARE(page.presetBox()->currentText(), cruncher.name + QStringLiteral(" (modified)"));
    QCOMPARE(page.scenario().preset, std::string("cruncher")); // the file still names the preset it came from
    typeInto(page.controls()->batchField(), QStringLiteral("2"));
    QCOMPARE(page.presetBox()->currentText(), cruncher.name);
    // Read back from a scenario whose values differ from its preset's: still marked.
    typeInto(page.controls()->batchField(), QStringLiteral("4"));
    const napkin::AccountingScenario saved = page.scenario();
    AccountingPage reopened;
    reopened.applyScenario(saved);
    QCOMPARE(reopened.presetBox()->currentText(), cruncher.name + QStringLiteral(" (modified)"));
}

void TestAccountingPage::invalidCombinationKeepsLastCharts() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    const double paramsBytes = page.memoryChart()->data().segments[0].bytes;
    const double forward = page.flopChart()->data().phases[0].flops;
    typeInto(page.controls()->headsField(), QStringLiteral("7")); // 7 does not divide 768
    QVERIFY2(page.lastError().contains(QStringLiteral("heads")), qPrintable(page.lastError()));
    QVERIFY(page.answers()->errorText().contains(QStringLiteral("must divide")));
    QCOMPARE(page.memoryChart()->data().segments[0].bytes, paramsBytes);
    QCOMPARE(page.flopChart()->data().phases[0].flops, forward);
    QCOMPARE(page.lastResult()->parameters.total, 124439808.0);
    typeInto(page.controls()->headsField(), QStringLiteral("16"));
    QVERIFY(page.lastError().isEmpty());
    QVERIFY(page.answers()->errorText().isEmpty());
}

// An invalid input keeps the last valid result on screen; everything that shows it (the three charts, the
// answers, "How is this computed?") is greyed with the reason, never shown as the controls' setup (the
// charts kept showing "one of 1024 × T4" after the controls had moved on), and comes back when valid.
void TestAccountingPage::invalidInputGreysWhatNoLongerMatches() {
    AccountingPage page;
    page.resize(1280, 720);
    page.show();
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    QComboBox* gpu = page.controls()->gpuBox();
    gpu->setCurrentIndex(gpu->findData(QStringLiteral("T4")));
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    const std::initializer_list<ChartView*> charts{page.memoryChart(), page.flopChart(),
                                                   page.timelineChart()};
    for (ChartView* chart : charts)
        QVERIFY(chart->staleReason().isEmpty());
    QVERIFY(!page.answers()->isStale());

    typeInto(page.controls()->headsField(), QStringLiteral("7")); // 7 does not divide 768
    QVERIFY(!page.lastError().isEmpty());
    for (ChartView* chart : charts) {
        QVERIFY2(chart->staleReason().contains(QStringLiteral("heads: must divide d-model")),
                 qPrintable(chart->title() + QStringLiteral(": ") + chart->staleReason()));
        auto* veil = chart->findChild<QLabel*>(QStringLiteral("staleVeil"));
        QVERIFY(veil && veil->isVisible());
        QCOMPARE(veil->geometry(), chart->rect()); // over the whole chart
    }
    QVERIFY(page.answers()->isStale());
    QVERIFY(page.answers()->errorText().contains(QStringLiteral("greyed")));
    QVERIFY(!page.explainPane()->browser()->isEnabled());
    if (const QByteArray dir = qgetenv("NAPKIN_TEST_SNAPSHOTS"); !dir.isEmpty()) {
        for (ChartView* chart : charts) // the queued replots of the T4's charts, as the event loop would
            chart->replotNow();
        page.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/accounting_stale.png"));
    }

    typeInto(page.controls()->headsField(), QStringLiteral("12"));
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    for (ChartView* chart : charts)
        QVERIFY(chart->staleReason().isEmpty());
    QVERIFY(!page.answers()->isStale());
    QVERIFY(page.explainPane()->browser()->isEnabled());
}

// A dense parameter count has no architecture, so the order of its step is not modelled: the engine takes
// the peak to be the sum (peakFromTimeline false) and the answer says so. The chart beside it drew the
// phases and marked "peak 16 GB at backward", as though it knew the order; it now names the same peak,
// the sum, in the same bytes.
void TestAccountingPage::denseChartAndNoteTellOneStory() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("70b-15t-1024-h100")));
    const AccountingResult& r = *page.lastResult();
    QVERIFY(!r.peakFromTimeline);
    QCOMPARE(r.peakMemory.value, r.memory.total.value); // the engine's truth: the peak is the sum
    const MemoryTimelineChartData& d = page.timelineChart()->data();
    QVERIFY(!d.eventByEvent);
    QCOMPARE(d.totalAt(d.peakIndex()), d.sumBytes());
    const QString bytes = QString::fromStdString(formatBytes(r.peakMemory.value));
    QCOMPARE(page.timelineChart()->peakText(), QStringLiteral("peak = the sum, %1").arg(bytes));
    QVERIFY(page.timelineChart()
                ->layoutGeometry()
                .axisTitles.join(QLatin1Char(' '))
                .replace(QLatin1Char('\n'), QLatin1Char(' '))
                .contains(QStringLiteral("order not modelled")));
    QCOMPARE(page.answers()->valueText(QStringLiteral("peakOverStep")),
             QStringLiteral("%1 (the sum)").arg(bytes));
    QVERIFY(
        page.answers()->formulaText(QStringLiteral("peakOverStep")).contains(QStringLiteral("not modelled")));
}

void TestAccountingPage::gibSwitch() {
    AccountingPage page;
    page.resize(1200, 800);
    page.show();
    page.applyPreset(*findPreset(QStringLiteral("largest-8-h100")));
    QCOMPARE(page.answers()->valueText(QStringLiteral("memoryPerGpu")), QStringLiteral("80 GB"));
    QVERIFY(!page.memoryChart()->capacityOffScale()); // exactly at capacity: the line is drawn
    choose(page.unitsBox(), int(ByteUnits::binary));
    QCOMPARE(page.memoryChart()->byteUnits(), ByteUnits::binary);
    QCOMPARE(page.answers()->valueText(QStringLiteral("memoryPerGpu")), QStringLiteral("74.51 GiB"));
    page.memoryChart()->render(800, 600); // lays out the axis, which computes the tick labels
    const QStringList labels = page.memoryChart()->tickLabels();
    QVERIFY2(labels.filter(QStringLiteral("GiB")).size() >= 2, qPrintable(labels.join(QStringLiteral(", "))));
    // Round steps in GiB: every non-zero label is a whole number of GiB.
    for (const QString& l : labels)
        if (l != QStringLiteral("0"))
            QVERIFY2(QRegularExpression(QStringLiteral("^\\d+ GiB$")).match(l).hasMatch(), qPrintable(l));
}

void TestAccountingPage::tooltipsCarryFormulas() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    const MemoryChart* chart = page.memoryChart();
    QCOMPARE(chart->segmentAt(100), 0);  // parameters: 0 … 144
    QCOMPARE(chart->segmentAt(200), 1);  // gradients: 144 … 288
    QCOMPARE(chart->segmentAt(300), 3);  // no master weights; optimizer state: 288 … 432
    QCOMPARE(chart->segmentAt(450), 4);  // activations: 432 … 496
    QCOMPARE(chart->segmentAt(500), -1); // above the bar
    const QString tip = chart->tooltipFor(4);
    QVERIFY2(tip.contains(QStringLiteral("64 B")) && tip.contains(QStringLiteral("B·D·L")), qPrintable(tip));
    const FlopChartData::Bar* head = page.flopChart()->barAt(7.1); // phases 1…3, gap, components 5, 6, 7
    QVERIFY(head);
    QCOMPARE(head->label, QStringLiteral("head"));
    QVERIFY(page.flopChart()->tooltipFor(*head).contains(QStringLiteral("2·B·D")));
}

void TestAccountingPage::keyboardOrder() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    page.show();
    QApplication::setActiveWindow(&page);
    QVERIFY(QTest::qWaitForWindowActive(&page));
    page.presetBox()->setFocus();
    QTRY_COMPARE(QApplication::focusWidget(), page.presetBox());
    const QList<QWidget*> expectedOrder{
        page.unitsBox(), page.controls()->modelKindBox(), page.controls()->dimField()->lineEdit(),
        page.controls()->layersField()->lineEdit(), page.controls()->batchField()->lineEdit()};
    for (QWidget* next : expectedOrder) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), next);
    }
    // Each control's label is its buddy, so Alt+mnemonic reaches it.
    const QList<QLabel*> labels = page.controls()->findChildren<QLabel*>();
    int buddies = 0;
    for (QLabel* l : labels)
        buddies += l->buddy() != nullptr;
    QVERIFY2(buddies >= 15, qPrintable(QString::number(buddies)));
}

void TestAccountingPage::settingsRoundTrip() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("napkin.ini")), QSettings::IniFormat);
    AccountingPage first;
    first.applyPreset(*findPreset(QStringLiteral("gpt3-175b")));
    choose(first.unitsBox(), int(ByteUnits::binary));
    first.saveSettings(settings);
    settings.sync();

    AccountingPage second;
    second.restoreSettings(settings);
    const AccountingInput a = first.controls()->input(), b = second.controls()->input();
    QCOMPARE(b.model.kind, ModelKind::transformer);
    QCOMPARE(b.model.dModel, 12288.0);
    QCOMPARE(b.model.layers, 96.0);
    QCOMPARE(b.model.seq, 2048.0);
    QCOMPARE(*b.trainingTokens, 300e9);
    QCOMPARE(b.gpus, a.gpus);
    QCOMPARE(b.zeroStage, 3);
    QCOMPARE(b.recompute, Recompute::full);
    QCOMPARE(b.optimizer, OptimizerKind::adam);
    QCOMPARE(second.memoryChart()->byteUnits(), ByteUnits::binary);
    QCOMPARE(second.lastResult()->parameters.total, first.lastResult()->parameters.total);

    // The architecture and the layout come back too.
    first.applyPreset(*findPreset(QStringLiteral("mixtral-8x7b")));
    first.saveSettings(settings);
    settings.sync();
    AccountingPage third;
    third.restoreSettings(settings);
    QCOMPARE(third.controls()->input().model, first.controls()->input().model);
    QCOMPARE(third.controls()->input().parallel, first.controls()->input().parallel);

    // Everything a scenario holds: fine-tuning (QLoRA with offloading) and the activation profile were not
    // in the hand-written settings format, and a reopened window lost them.
    first.applyPreset(*findPreset(QStringLiteral("llama3-8b-qlora-24gb")));
    first.saveSettings(settings);
    settings.sync();
    AccountingPage fourth;
    fourth.restoreSettings(settings);
    QCOMPARE(fourth.scenario(), first.scenario());
    QCOMPARE(fourth.controls()->input().fineTuning, first.controls()->input().fineTuning);
    QCOMPARE(fourth.presetBox()->currentData().toString(), QStringLiteral("llama3-8b-qlora-24gb"));

    // Settings that no longer read leave the page as it opened.
    settings.setValue(QStringLiteral("accounting/scenario"),
                      QStringLiteral("{\"version\": 2, \"accounting\": 7}"));
    AccountingPage fifth, fresh;
    fifth.restoreSettings(settings);
    QCOMPARE(fifth.scenario(), fresh.scenario());
}

void TestAccountingPage::familyAndKvHeadsChangeTheCount() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    ArchitectureControls* arch = page.controls()->architecture();
    QCOMPARE(arch->familyBox()->currentData().toInt(), int(ArchitectureFamily::gpt2));
    // Llama's choices on GPT-2 small's sizes: SwiGLU, RMSNorm, no biases, untied, RoPE.
    const int llama = arch->familyBox()->findData(int(ArchitectureFamily::llama));
    arch->familyBox()->setCurrentIndex(llama);
    emit arch->familyBox()->activated(llama);
    QCOMPARE(page.controls()->input().model.mlp, MlpKind::swiglu);
    QCOMPARE(page.controls()->input().model.dModel, 768.0);
    const AccountingResult r = expected(page);
    QCOMPARE(page.lastResult()->parameters.total, r.parameters.total);
    // 12 × (4d² + 3·d·4d + 2d) + 2·V·d + d at d = 768.
    QCOMPARE(r.parameters.total,
             12 * (4 * 768.0 * 768 + 3 * 768.0 * 3072 + 2 * 768) + 2 * 50257.0 * 768 + 768);
    checkMemoryChart(page, r);
    // Grouped-query attention: 4 KV heads of 12 shrink K and V to d/3.
    arch->kvHeadsBox()->setValue(4);
    QCOMPARE(page.controls()->input().model.kvHeads, 4.0);
    QCOMPARE(page.lastResult()->parameters.total, r.parameters.total - 12 * 2 * 768.0 * (768 - 256));
    QCOMPARE(arch->familyBox()->currentData().toInt(),
             int(ArchitectureFamily::llama)); // sizes are not the family
    arch->dropoutCheck()->setChecked(true);
    QCOMPARE(arch->familyBox()->currentText(), QStringLiteral("custom"));
}

void TestAccountingPage::parallelismSplitsTheMemory() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("llama3-8b")));
    ParallelismControls* par = page.controls()->parallelism();
    QCOMPARE(page.controls()->input().parallel.tp, 8.0);
    QCOMPARE(par->dataParallelText(), QStringLiteral("dp = 64 / (8 × 1 × 1) = 8"));
    const double activations = page.memoryChart()->data().segments[4].bytes;
    par->spCheck()->setChecked(false); // the norms' and dropouts' tensors are no longer split
    QVERIFY(page.memoryChart()->data().segments[4].bytes > activations);
    par->ppBox()->setValue(4);
    par->microbatchesBox()->setValue(8);
    const AccountingResult r = expected(page);
    checkMemoryChart(page, r);
    QCOMPARE(r.pipelineBubbleFraction.value, 3.0 / 11);
    QVERIFY(page.memoryChart()->data().gpuLabel.contains(QStringLiteral("first stage")));
    QVERIFY(page.answers()->valueText(QStringLiteral("communication")).contains(QStringLiteral(" in ")));
}

// The frameworks' layouts as controls: interleaved 1F1B and ZeRO-3's gathered layers change the answers
// the page shows, the explain pane lists every pipeline stage, and what does not apply says why.
void TestAccountingPage::shardingAndStagesAreControls() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("llama3-8b")));
    ParallelismControls* par = page.controls()->parallelism();
    ShardingControls* sharding = page.controls()->sharding();
    QVERIFY(!par->virtualStagesBox()->isEnabled()); // pp 1
    par->ppBox()->setValue(4);
    par->microbatchesBox()->setValue(8);
    const double bubble = page.lastResult()->pipelineBubbleFraction.value;
    par->virtualStagesBox()->setValue(2);
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QCOMPARE(page.lastResult()->pipelineBubbleFraction.value, 3.0 / 19); // (p − 1)/(v·m + p − 1)
    QVERIFY(page.lastResult()->pipelineBubbleFraction.value < bubble);
    QCOMPARE(page.lastResult()->pipelineStages.size(), std::size_t(4));
    QString html = explainAccounting(page.controls()->input(), *page.lastResult(), ByteUnits::decimal);
    for (const char* text : {"Every pipeline stage", "Interleaved 1F1B", "head and loss"})
        QVERIFY2(html.contains(QLatin1String(text)), text);
    QVERIFY(!sharding->gatheredBox()->isEnabled()); // ZeRO 0
    QVERIFY(sharding->gatheredBox()->toolTip().contains(QStringLiteral("stage 3")));
    choose(page.controls()->zeroBox(), 3);
    QVERIFY(sharding->gatheredBox()->isEnabled());
    const double total = page.lastResult()->memory.total.value;
    choose(sharding->gatheredBox(), int(GatheredLayers::fsdp));
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QCOMPARE(page.lastResult()->memory.total.value, total + page.lastResult()->gathered.backwardBytes);
    html = explainAccounting(page.controls()->input(), *page.lastResult(), ByteUnits::decimal);
    QVERIFY(html.contains(QLatin1String("Gathered layers")));
    QVERIFY(!sharding->twoGradientCopiesCheck()->isEnabled()); // ZeRO-3: DeepSpeed's are ZeRO-1/2's
}

void TestAccountingPage::inapplicableControlsSayWhy() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    ParallelismControls* par = page.controls()->parallelism();
    ArchitectureControls* arch = page.controls()->architecture();
    QVERIFY(!par->spCheck()->isEnabled()); // tp 1
    QVERIFY(par->spCheck()->toolTip().contains(QStringLiteral("tp above 1")));
    QVERIFY(!par->cpBox()->isEnabled()); // eager attention
    QVERIFY(par->cpBox()->toolTip().contains(QStringLiteral("flash")));
    QVERIFY(!par->epBox()->isEnabled() && !arch->topKBox()->isEnabled()); // no experts
    QVERIFY(arch->topKBox()->toolTip().contains(QStringLiteral("experts above 1")));
    par->tpBox()->setValue(2);
    QVERIFY(par->spCheck()->isEnabled());
    arch->expertsBox()->setValue(8);
    QVERIFY(par->epBox()->isEnabled() && arch->topKBox()->isEnabled());
    // Not a transformer: the architecture and the model-parallel sizes do not apply.
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    QVERIFY(!arch->isEnabled());
    QVERIFY(arch->toolTip().contains(QStringLiteral("transformer")));
    QVERIFY(!par->ppBox()->isEnabled());
    QVERIFY(par->microbatchesBox()->isEnabled());
}

void TestAccountingPage::refusedLayoutShowsNextToTheControl() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    const MemoryChartData before = page.memoryChart()->data();
    QSpinBox* tp = page.controls()->parallelism()->tpBox();
    tp->setValue(5); // 5 does not divide 12 heads
    QCOMPARE(page.controls()->fieldErrorControl(), static_cast<QWidget*>(tp));
    QVERIFY2(page.controls()->fieldErrorText().contains(QStringLiteral("must divide heads")),
             qPrintable(page.controls()->fieldErrorText()));
    QVERIFY(page.lastError().startsWith(QStringLiteral("tp:")));
    QCOMPARE(page.memoryChart()->data().totalBytes(), before.totalBytes()); // the last good state stays
    tp->setValue(4); // divides the 12 heads, but on 1 GPU data parallel = 1/4 is not whole
    QVERIFY2(page.lastError().startsWith(QStringLiteral("gpus:")), qPrintable(page.lastError()));
    QCOMPARE(page.controls()->fieldErrorControl(), static_cast<QWidget*>(page.controls()->gpusField()));
    tp->setValue(1);
    QVERIFY(page.lastError().isEmpty());
    QVERIFY(page.controls()->fieldErrorText().isEmpty());
    QVERIFY(!page.controls()->fieldErrorControl());
}

void TestAccountingPage::noFitSaysWhatWould() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt3-175b")));
    choose(page.controls()->recomputeBox(), int(Recompute::selective)); // 82.6 GB of activations per GPU
    QVERIFY(!page.lastResult()->fits);
    const QString value = page.answers()->valueText(QStringLiteral("maxBatch"));
    QVERIFY2(value.startsWith(QStringLiteral("none — even batch 1 does not fit")), qPrintable(value));
    QVERIFY2(value.contains(QStringLiteral("full recompute")), qPrintable(value));
}

// Issue 30's QLoRA setup (Llama 3 8B, r = 16, batch 1, on a 24 GB GPU): napkin-cli account --preset
// llama3-8b-qlora-24gb --json gives max_sequence 13733 with the overheads in the usable basis (13748 in the
// datasheet basis; tests/engine/accounting/tst_max_sequence.cpp); the page says the same with its formula,
// and a model kind without a sequence says why not.
void TestAccountingPage::longestSequenceIsAnswered() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("llama3-8b-qlora-24gb")));
    QCOMPARE(page.answers()->valueText(QStringLiteral("maxSequence")), QStringLiteral("13,733 tokens"));
    QVERIFY(page.lastResult()->maxSequence);
    QCOMPARE(page.lastResult()->maxSequence->value, 13733.0);
    page.applyPreset(*findPreset(QStringLiteral("cruncher")));
    QCOMPARE(page.answers()->valueText(QStringLiteral("maxSequence")), QStringLiteral("—"));
}

void TestAccountingPage::explainShowsTheLedgers() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("llama3-70b")));
    const QString html = explainAccounting(page.controls()->input(), *page.lastResult(), ByteUnits::decimal);
    for (const char* text :
         {"Activations kept for backward", "log-sum-exp per row", "SiLU output",
          "Parallel layout and communication", "all-gathers and reduce-scatters in the layers",
          "activations to the next stage"})
        QVERIFY2(html.contains(QLatin1String(text)), text);
}

// --activations-of had no control: the page could only show Megatron's ledger. Chosen, PyTorch eager's
// ledger drives the charts with napkin-cli's numbers, the explain
// pane says whose tensors they are, and the page's scenario keeps the choice; where the profile does not
// describe the setup (tensor parallel), the refusal stands next to the box.
void TestAccountingPage::activationProfileIsAControl() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    const double megatron = page.lastResult()->memory.activations.value;
    choose(page.controls()->activationsOfBox(), int(ActivationProfile::pytorchEager));
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    // The CLI's figures for the same setup: `napkin-cli account --preset gpt2-small --activations-of P
    // --json`, memory_bytes.activations: megatron 10253533184, pytorch-eager 9475809378 (bool dropout
    // masks of 1 byte where Megatron counts its own).
    QCOMPARE(megatron, 10253533184.0);
    QCOMPARE(page.lastResult()->memory.activations.value, 9475809378.0);
    QCOMPARE(page.scenario().input.model.activationsOf, ActivationProfile::pytorchEager);
    const QString html = explainAccounting(page.controls()->input(), *page.lastResult(), ByteUnits::decimal);
    QVERIFY2(html.contains(QLatin1String("Whose tensors:</b> pytorch-eager")), qPrintable(html.left(400)));
    page.applyPreset(*findPreset(QStringLiteral("llama3-70b"))); // back to Megatron's, as presets say
    QCOMPARE(page.controls()->activationsOfBox()->currentData().toInt(), int(ActivationProfile::megatron));
    choose(page.controls()->activationsOfBox(), int(ActivationProfile::pytorchEager));
    QVERIFY2(page.lastError().startsWith(QStringLiteral("activations-of:")), qPrintable(page.lastError()));
    QCOMPARE(page.controls()->fieldErrorControl(),
             static_cast<QWidget*>(page.controls()->activationsOfBox()));
}

// --optimizer-implementation had no control: a scenario or command line with single-tensor came back from
// the page's controls as the default foreach, silently. The box keeps it, is live only where it matters
// (pytorch-eager), and the optimizer step follows it.
void TestAccountingPage::optimizerImplementationSurvivesTheControls() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    AccountingInput in = page.controls()->input();
    QCOMPARE(in.optimizerImplementation, OptimizerImplementation::forEach);
    QVERIFY(!page.controls()->optimizerImplementationBox()->isEnabled()); // Megatron: fused
    in.model.activationsOf = ActivationProfile::pytorchEager;
    in.optimizerImplementation = OptimizerImplementation::singleTensor;
    page.controls()->setInput(in);
    QCOMPARE(page.controls()->input().optimizerImplementation, OptimizerImplementation::singleTensor);
    QVERIFY(page.controls()->optimizerImplementationBox()->isEnabled());
    in.optimizerImplementation = OptimizerImplementation::forEach;
    page.controls()->setInput(in);
    QCOMPARE(page.controls()->input().optimizerImplementation, OptimizerImplementation::forEach);
}

// The overhead ledger on the page: a fresh page judges fits against the H100's usable 81,559 MiB with the
// overheads; "Fits against: datasheet" is the lecture's 80e9 B with none, in the answers and on the bar.
void TestAccountingPage::overheadsAreControlsAndAnswers() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    QVERIFY(page.lastResult());
    QCOMPARE(int(page.lastResult()->overheads.basis), int(MemoryBasis::usable));
    QCOMPARE(page.memoryChart()->data().capacityBytes, 81559.0 * 1048576);
    QVERIFY(page.memoryChart()->data().overheadBytes > 0);
    QVERIFY2(page.answers()->valueText(QStringLiteral("usableMemory")).contains(QStringLiteral("85.52 GB")),
             qPrintable(page.answers()->valueText(QStringLiteral("usableMemory"))));
    QVERIFY(page.answers()
                ->formulaText(QStringLiteral("overheads"))
                .contains(QStringLiteral("cuBLAS workspace")));
    // The lines the value does not sum, by name and why; their formulas in How is this computed?.
    const QString overheads = page.answers()->formulaText(QStringLiteral("overheads"));
    QVERIFY2(overheads.contains(QStringLiteral("not counted: CUDA context (not measured)")) &&
                 overheads.contains(QStringLiteral("fragmentation allowance (off)")) &&
                 !overheads.contains(QStringLiteral("--nccl-channels")),
             qPrintable(overheads));
    QVERIFY(page.answers()->valueText(QStringLiteral("fits")).contains(QStringLiteral("usable")));
    QVERIFY(explainAccounting(page.controls()->input(), *page.lastResult(), ByteUnits::decimal)
                .contains(QStringLiteral("Overheads and usable memory")));

    OverheadControls* o = page.controls()->overheads();
    o->basisBox()->setCurrentIndex(o->basisBox()->findData(int(MemoryBasis::datasheet)));
    QCOMPARE(int(page.controls()->input().overheads.basis), int(MemoryBasis::datasheet));
    QCOMPARE(page.lastResult()->usableBytes.value, 80e9);
    QCOMPARE(page.memoryChart()->data().capacityBytes, 80e9);
    QCOMPARE(page.memoryChart()->data().overheadBytes, 0.0);
    QVERIFY(page.answers()->valueText(QStringLiteral("overheads")).contains(QStringLiteral("none counted")));
    QVERIFY(!o->knobBox("fragmentation")->isEnabled()); // the datasheet basis counts no overhead
}

// Every number of the overhead table (memory_overhead_knobs.h) is a row of the Memory overheads group with
// the table's range (an open end one step inside), reaches the page's input and is where a refusal of its
// field is shown; an optional one is unset by its checkbox. Before, the group built two rows itself (CUDA
// major, a measured context and NCCL_BUFFSIZE had none) and its ranges were its own.
void TestAccountingPage::overheadRowsAreTheTable() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    OverheadControls* o = page.controls()->overheads();
    QCOMPARE(int(page.controls()->input().overheads.basis), int(MemoryBasis::usable));
    for (const NumberKnob<MemoryOverheadSettings>& knob : memoryOverheadKnobs()) {
        const QString field = QString::fromUtf8(knob.field().data(), qsizetype(knob.field().size()));
        QDoubleSpinBox* box = o->knobBox(knob.field());
        QVERIFY2(box, qPrintable(field));
        QCOMPARE(o->controlFor(std::string(knob.field())) != nullptr, true);
        QVERIFY2(knob.range.contains(box->minimum()) && knob.range.contains(box->maximum()),
                 qPrintable(field));
        QVERIFY2(box->toolTip().contains(QString::fromUtf8(knob.flag.data(), qsizetype(knob.flag.size()))),
                 qPrintable(field));
        if (QCheckBox* check = o->knobCheck(knob.field()))
            check->setChecked(true);
        QVERIFY2(box->isEnabled(), qPrintable(field));
        const double value = knob.range.whole ? std::floor(box->maximum() / 2) : box->maximum() / 2;
        box->setValue(value);
        QCOMPARE(knob.get(page.controls()->input().overheads), std::optional(box->value()));
        if (QCheckBox* check = o->knobCheck(knob.field())) {
            check->setChecked(false);
            QVERIFY2(!box->isEnabled(), qPrintable(field));
            QVERIFY2(!knob.get(page.controls()->input().overheads), qPrintable(field));
        }
    }
    QCOMPARE(o->knobBox("fragmentation")->maximum(), 0.99); // [0, 1) at two decimals
    QCOMPARE(o->knobBox("no-such-knob"), nullptr);
}

// The batch, tokens, GPU count and MFU fields take what napkin-cli and a scenario file take (their table,
// training_knobs.h), in its words: an MFU of 0.555 stays 0.555 (a two-decimal box made it 0.56), 0.005 and
// 1e15 tokens are shown as given (the box and the slider clamped them), and a refusal says the range.
void TestAccountingPage::trainingFieldsTakeWhatTheCliTakes() {
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    AccountingControls* c = page.controls();
    AccountingInput in = c->input();
    in.mfu = 0.555;
    in.trainingTokens = 1e15;
    c->setInput(in);
    QCOMPARE(c->input().mfu, 0.555);
    QCOMPARE(c->input().trainingTokens, std::optional(1e15));
    typeInto(c->mfuField(), QStringLiteral("0.005"));
    QCOMPARE(c->input().mfu, 0.005);
    QVERIFY(c->mfuField()->errorText().isEmpty());
    typeInto(c->mfuField(), QStringLiteral("0"));
    QCOMPARE(c->input().mfu, 0.005); // kept
    QVERIFY2(c->mfuField()->errorText().contains(QStringLiteral("must be in (0, 1]")),
             qPrintable(c->mfuField()->errorText()));
    typeInto(c->tokensField()->field(), QStringLiteral("60000"));
    QCOMPARE(c->input().trainingTokens, std::optional(60000.0));
    typeInto(c->tokensField()->field(), QStringLiteral("2e18"));
    QVERIFY2(c->tokensField()->field()->errorText().contains(QStringLiteral("must be in (0, 1e18]")),
             qPrintable(c->tokensField()->field()->errorText()));
    typeInto(c->gpusField(), QStringLiteral("1e8"));
    QVERIFY2(c->gpusField()->errorText().contains(QStringLiteral("must be a whole number from 1 to 1.00e7")),
             qPrintable(c->gpusField()->errorText()));
    QVERIFY(c->batchField()->toolTip().contains(QStringLiteral("--batch")));
}

QTEST_MAIN(TestAccountingPage)
#include "tst_accounting_page.moc"
