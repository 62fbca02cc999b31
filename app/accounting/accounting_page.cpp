// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/accounting_page.h"

#include "app/accounting/accounting_controls.h"
#include "app/accounting/answers_panel.h"
#include "app/accounting/explain_accounting.h"
#include "app/accounting/layout_plan_dialog.h"
#include "app/accounting/measured_run_section.h"
#include "app/accounting/memory_timeline_section.h"
#include "app/accounting/presets.h"
#include "app/accounting/reserved_line.h"
#include "app/accounting/step_time_answer.h"
#include "app/hardware/chosen_hardware_profile.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/model/opened_model_entry.h"
#include "engine/accounting/capability_rules.h"
#include "engine/planning/layout_choice.h"
#include "engine/report/cli_command_line.h"
#include "engine/scenario/accounting_fields.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/flow_splitter.h"
#include "widgets/controls/page_columns.h"
#include "widgets/controls/panel_scroll_area.h"
#include "widgets/controls/results_column.h"
#include "widgets/text/engine_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <initializer_list>

using namespace napkin;

namespace {

/// The page's settings: its scenario section as a scenario file's text.
constexpr const char* kSettingsKey = "accounting/scenario";

MemoryChartData memoryData(const AccountingResult& r, const AccountingInput& in, const FitVerdict& verdict) {
    MemoryChartData d;
    const std::array<const Quantity*, 5> parts{&r.memory.parameters, &r.memory.gradients,
                                               &r.memory.masterWeights, &r.memory.optimizerState,
                                               &r.memory.activations};
    const std::array<QString, 5> names{AccountingPage::tr("parameters"), AccountingPage::tr("gradients"),
                                       AccountingPage::tr("master weights"),
                                       AccountingPage::tr("optimizer state"),
                                       AccountingPage::tr("activations")};
    for (std::size_t i = 0; i < parts.size(); ++i)
        d.segments[i] = {names[i], parts[i]->value, toQString(parts[i]->formula)};
    d.capacityBytes = r.usableBytes.value; // what fits is judged against (memory_overheads.h)
    d.capacityFormula = toQString(r.usableBytes.formula);
    d.usableCapacity = r.overheads.basis == MemoryBasis::usable;
    d.fits = verdict.fits; // the engine's verdict: on reserved where the simulated allocator applies
    d.peakBytes = r.peakMemory.value;
    d.overheadBytes = r.overheads.totalBytes;
    d.peakEvent = toQString(r.peakEvent);
    d.gpuLabel =
        in.gpus > 1
            ? AccountingPage::tr("one of %1 × %2").arg(toQString(formatNumber(in.gpus)), toQString(in.gpu))
            : AccountingPage::tr("one %1").arg(toQString(in.gpu));
    if (r.memoryStage) // with a pipeline: the most loaded stage's GPU
        d.gpuLabel +=
            AccountingPage::tr(", %1 stage").arg(toQString(std::string(pipelineStageName(*r.memoryStage))));
    return d;
}

FlopChartData flopData(const AccountingResult& r) {
    const StepFlops& f = r.flopsPerStep;
    FlopChartData d;
    d.phases = {{AccountingPage::tr("forward"), f.forward, toQString(f.forwardFormula)},
                {AccountingPage::tr("backward"), f.backward, toQString(f.backwardFormula)},
                {AccountingPage::tr("recompute"), f.recompute, toQString(f.recomputeFormula)}};
    for (const ComponentFlops& c : f.components)
        d.components.push_back({toQString(c.name), c.forward, toQString(c.formula)});
    return d;
}

} // namespace

AccountingPage::AccountingPage(QWidget* parent)
    : QWidget(parent)
    , m_presets(new QComboBox(this))
    , m_units(new QComboBox(this))
    , m_controls(new AccountingControls(this))
    , m_memoryChart(new MemoryChart(this))
    , m_flopChart(new FlopChart(this))
    , m_timelineChart(new MemoryTimelineChart(this))
    , m_answers(new AnswersPanel(this))
    , m_reservedLine(new ReservedLine(m_timelineChart, this)) {
    m_presets->addItem(tr("Choose a lecture question or a model…"));
    addPresetEntries(m_presets);
    for (int i = 1; i < m_presets->count(); ++i)
        if (m_presets->itemData(i).isValid())
            m_presets->setItemData(i, m_presets->itemText(i), kPresetNameRole);
    m_presets->setToolTip(tr("A lecture's worked example sets every control; a model's config.json "
                             "(\"· config.json\") sets the model and keeps the training and hardware."));
    // Its width does not follow the chosen name: "… (modified)" must not widen the panel past a
    // projector's 1024 pixels.
    m_presets->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_presets->setMinimumContentsLength(24);
    m_units->addItem(tr("GB (10⁹ bytes)"), static_cast<int>(ByteUnits::decimal));
    m_units->addItem(tr("GiB (2³⁰ bytes)"), static_cast<int>(ByteUnits::binary));
    m_units->setToolTip(
        tr("Show memory in decimal GB, as datasheets do, or binary GiB, as nvidia-smi does."));

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    auto* presetLabel = new QLabel(tr("P&reset:"), left);
    presetLabel->setBuddy(m_presets);
    auto* presetRow = new QHBoxLayout;
    presetRow->addWidget(presetLabel);
    presetRow->addWidget(m_presets, 1);
    leftLayout->addLayout(presetRow);
    auto* unitsLabel = new QLabel(tr("Memory &units:"), left);
    unitsLabel->setBuddy(m_units);
    auto* unitsRow = new QHBoxLayout;
    unitsRow->addWidget(unitsLabel);
    unitsRow->addWidget(m_units, 1);
    leftLayout->addLayout(unitsRow);
    m_plan = new QPushButton(tr("Find the fastest &layout…"), left);
    m_plan->setObjectName(QStringLiteral("findFastestLayoutButton"));
    m_plan->setToolTip(tr("Search every way to run this model on these GPUs at this global batch (tp, pp and "
                          "v, cp, ep, dp, micro-batches, recompute, ZeRO, attention kernel), ranked by "
                          "predicted step time: what napkin-cli plan does"));
    connect(m_plan, &QPushButton::clicked, this, [this] { findFastestLayout(); });
    leftLayout->addWidget(m_plan);
    leftLayout->addWidget(m_controls, 1);
    auto* scroll = new PanelScrollArea(left, this);
    m_controlPanel = scroll;

    auto* charts = new FlowSplitter(this);
    charts->addWidget(m_memoryChart);
    charts->addWidget(m_flopChart);
    charts->setStretchFactor(0, 1);
    charts->setStretchFactor(1, 1);
    m_explain = new ExplainPane(this);
    auto* right = new ResultsColumn(m_answers, m_explain, this);
    right->addChartPane(charts, 2);
    // Under the timeline, a measured run's one line (or why a file was refused) and its Clear button.
    auto* timelineBox = new QWidget(this);
    auto* timelineLayout = new QVBoxLayout(timelineBox);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->addWidget(m_timelineChart, 1);
    auto* measuredRow = new QHBoxLayout;
    m_measuredNote = new QLabel(timelineBox);
    m_measuredNote->setObjectName(QStringLiteral("measuredRunNote"));
    m_measuredNote->setTextFormat(Qt::PlainText);
    m_measuredNote->setWordWrap(true);
    m_measuredNote->hide();
    m_clearMeasured = new QPushButton(tr("Clear measured run"), timelineBox);
    m_clearMeasured->setObjectName(QStringLiteral("clearMeasuredRunButton"));
    m_clearMeasured->hide();
    m_useRunSetup = new QPushButton(tr("Use the run's setup"), timelineBox);
    m_useRunSetup->setObjectName(QStringLiteral("useRunSetupButton"));
    m_useRunSetup->setToolTip(
        tr("Set the controls to the setup the run was made with (its trace says which)"));
    m_useRunSetup->hide();
    measuredRow->addWidget(m_measuredNote, 1);
    measuredRow->addWidget(m_useRunSetup);
    measuredRow->addWidget(m_clearMeasured);
    timelineLayout->addLayout(measuredRow);
    connect(m_clearMeasured, &QPushButton::clicked, this, &AccountingPage::clearMeasuredRun);
    connect(m_useRunSetup, &QPushButton::clicked, this, &AccountingPage::useRunSetup);
    right->addChartPane(timelineBox, 2);

    layOutPageColumns(this, scroll, right);

    connect(m_controls, &AccountingControls::inputChanged, this, &AccountingPage::recompute);
    // Another profile (chosen here, on the Benchmarks page, or calibrated): the step time changes.
    connect(&ChosenHardwareProfile::instance(), &ChosenHardwareProfile::changed, this, &AccountingPage::recompute);
    connect(m_presets, &QComboBox::activated, this, &AccountingPage::onPresetChosen);
    connect(m_units, &QComboBox::currentIndexChanged, this,
            [this](int) { setByteUnits(static_cast<ByteUnits>(m_units->currentData().toInt())); });
    recompute();
}

void AccountingPage::applyPreset(const Preset& preset) {
    m_controls->setFieldValues(withPreset(m_controls->fieldValues(), preset));
    m_presetInput = m_controls->input();
    const int index = m_presets->findData(preset.id);
    if (index >= 0)
        m_presets->setCurrentIndex(index);
    recompute();
}

LayoutPlanDialog* AccountingPage::findFastestLayout() {
    auto* dialog = new LayoutPlanDialog(m_controls->input(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &LayoutPlanDialog::layoutApplied, this, &AccountingPage::applyLayout);
    dialog->show();
    return dialog;
}

void AccountingPage::applyLayout(const AccountingInput& input) {
    AccountingScenario values = m_controls->fieldValues();
    values.input = withLayoutChoice(values.input, layoutChoiceOf(input));
    m_controls->setFieldValues(values);
    recompute();
}

void AccountingPage::setOwnModel(const ModelSpec& model, const QString& label) {
    m_ownModel = model;
    m_controls->setFieldValues(withModel(m_controls->fieldValues(), model));
    m_presetInput = m_controls->input();
    m_presets->setCurrentIndex(ownModelEntry(label));
    recompute();
}

bool AccountingPage::showsOpenedModel() const {
    const int opened = openedModelIndex(m_presets);
    return opened >= 0 && m_presets->currentIndex() == opened;
}

int AccountingPage::ownModelEntry(const QString& label) {
    return showOpenedModelEntry(m_presets, label);
}

void AccountingPage::showPresetModified() {
    const int index = m_presets->currentIndex();
    const QString name = index > 0 ? m_presets->itemData(index, kPresetNameRole).toString() : QString();
    if (name.isEmpty())
        return;
    const bool modified = m_presetInput && m_controls->input() != *m_presetInput;
    const QString text = modified ? tr("%1 (modified)").arg(name) : name;
    if (m_presets->itemText(index) != text)
        m_presets->setItemText(index, text);
}

void AccountingPage::onPresetChosen(int index) {
    if (const Preset* p = findPreset(m_presets->itemData(index).toString()))
        applyPreset(*p);
    else if (index > 0 && m_ownModel) // the config opened before
        setOwnModel(*m_ownModel, m_presets->itemData(index, kPresetNameRole).toString());
}

void AccountingPage::setByteUnits(ByteUnits units) {
    m_units->setCurrentIndex(m_units->findData(static_cast<int>(units)));
    m_memoryChart->setByteUnits(units);
    m_timelineChart->setByteUnits(units);
    recompute();
}

void AccountingPage::recompute() {
    showPresetModified();
    AccountingInput in = m_controls->input();
    // What the GPU cannot do (capability_rules.h): flash attention falls back below Ampere, bf16 may run
    // at the fp32 rate. Said beside the precision and in the answers; fp8 on Ampere is validate()'s error.
    QStringList warnings;
    if (const GpuSpec* gpu = sessionGpuCatalog().find(in.gpu))
        for (const std::string& w : applyCapabilityRules(in, *gpu))
            warnings << toQString(w);
    m_controls->setCapabilityNote(warnings.join(QLatin1Char('\n')));
    const InputError error = validate(in, sessionGpuCatalog()); // a custom GPU is known here
    if (!error.ok()) {
        // Keep the last good charts and answers; say what is wrong and where.
        m_error = tr("%1: %2").arg(toQString(error.field), toQString(error.message));
        m_answers->showError(
            tr("Cannot account for this combination — %1. Showing the last valid result, greyed.")
                .arg(m_error));
        m_answers->setWarnings(warnings); // about the controls as they are now, like the note beside them
        m_controls->showFieldError(error.field, toQString(error.message));
        showStale(m_error);
        return;
    }
    m_error.clear();
    m_controls->clearFieldError();
    showStale({});
    const ByteUnits byteUnits = m_memoryChart->byteUnits();
    m_result = account(in, *sessionGpuCatalog().find(in.gpu));
    MemoryTimeline timeline = memoryTimeline(in, *m_result);
    // fits on reserved (fit_verdict.h): one simulated step per change, on the chart's own timeline, outside
    // account(); the same verdict `napkin-cli account --json` gives
    m_fitVerdict = judgeFit(in, *m_result, AllocatorConfig{}, &timeline);
    m_memoryChart->setData(memoryData(*m_result, in, *m_fitVerdict));
    m_flopChart->setData(flopData(*m_result));
    MemoryTimelineChartData timelineData = memoryTimelineChartData(timeline, *m_result);
    m_reservedLine->update(timelineData, in, *m_result); // drawn once the controls rest
    m_measuredComparison.reset();
    if (m_measuredRun) {
        std::string deviceError;
        if (const MeasuredTimeline* device = chooseDevice(*m_measuredRun, std::nullopt, deviceError)) {
            m_measuredComparison = compareMeasuredRun(*m_result, timeline, *m_measuredRun, *device);
            timelineData.run = measuredRunCurve(timeline, *device, m_measuredLabel);
        }
    }
    showMeasuredNote(byteUnits);
    m_timelineChart->setData(timelineData);
    // An exported chart says the setup it was drawn for: the command that reproduces it.
    // The command as asked, before any fallback the GPU forced; an opened config.json named by its file.
    const bool opened = m_openedCommand && showsOpenedModel();
    const QString settings = toQString(withChosenProfileOption(
        accountCommandLine(m_controls->input(), opened ? &*m_openedCommand : nullptr), in.gpu));
    for (ChartView* chart : std::initializer_list<ChartView*>{m_memoryChart, m_flopChart, m_timelineChart})
        chart->setSettingsCaption(settings);
    m_answers->setResult(*m_result, byteUnits);
    m_answers->setFitVerdict(*m_fitVerdict, *m_result, byteUnits);
    // The step's time (engine/steptime) from the app's profile where it was measured on this GPU, else
    // from the GPU's published one: what `napkin-cli account [--hardware-profile FILE]` gives.
    const GpuSpec gpu = *sessionGpuCatalog().find(in.gpu);
    const StepTime stepTime =
        stepTimeFromProfile(in, *m_result, gpu, ChosenHardwareProfile::instance().profileFor(gpu));
    m_answers->setStepTime(stepTimeAnswer(stepTime, in.mfu));
    m_answers->setMeasuredRun(measuredComparison(), m_measuredLabel, byteUnits);
    m_answers->setWarnings(warnings);
    // How is this computed? is written when it is read (the pane open, an export): from copies, so that it
    // says this result whatever the controls hold by then.
    m_explain->setHtmlSource([in, result = *m_result, timeline = std::move(timeline), stepTime, gpu,
                              verdict = *m_fitVerdict, comparison = m_measuredComparison,
                              run = m_measuredRun, label = m_measuredLabel, byteUnits] {
        QString explain = explainAccounting(in, result, timeline, byteUnits) + explainFitVerdict(verdict) +
                          explainStepTime(stepTime, in.mfu);
        if (comparison && run)
            explain += explainMeasuredRun(*comparison, *run, runStepTime(in, result, gpu, *run, stepTime),
                                          gpu, label, byteUnits);
        return explain;
    });
}

// While an input is invalid the charts and the derivation show the last valid result: each is greyed
// with the reason, so nothing on the page reads as the controls' current setup (`reason` empty: current).
void AccountingPage::showStale(const QString& reason) {
    for (ChartView* chart : std::initializer_list<ChartView*>{m_memoryChart, m_flopChart, m_timelineChart})
        chart->setStale(reason);
    m_explain->browser()->setEnabled(reason.isEmpty());
}

// Control values are stored as the command-line spelling, so settings files stay readable.
// The page's settings between sessions are its section of a scenario file, as File ▸ Save scenario writes
// it: one format, so that everything a scenario holds (fine-tuning, the activation profile) comes back.
void AccountingPage::saveSettings(QSettings& s) const {
    Scenario document;
    document.accounting = scenario();
    s.remove(QStringLiteral("accounting")); // the keys of the hand-written format before it
    s.setValue(QLatin1String(kSettingsKey), toQString(writeScenario(document)));
}

void AccountingPage::restoreSettings(const QSettings& s) {
    const QString text = s.value(QLatin1String(kSettingsKey)).toString();
    if (text.isEmpty())
        return;
    // Settings that no longer read (a newer version's, or edited by hand) leave the page as it opened.
    const ScenarioParse parsed = parseScenario(text.toStdString());
    if (parsed.ok())
        applyScenario(parsed.scenario->accounting);
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

AccountingScenario AccountingPage::scenario() const {
    AccountingScenario s = m_controls->fieldValues();
    s.binaryUnits = static_cast<ByteUnits>(m_units->currentData().toInt()) == ByteUnits::binary;
    s.preset = m_presets->currentData().toString().toStdString();
    return s;
}

QStringList AccountingPage::applyScenario(const AccountingScenario& s) {
    QStringList warnings;
    const int preset = s.preset.empty() ? 0 : m_presets->findData(QString::fromStdString(s.preset));
    // What the preset alone would have entered, so that a file saved after editing one reads "(modified)".
    m_presetInput.reset();
    if (const Preset* p = preset > 0 ? findPreset(QString::fromStdString(s.preset)) : nullptr) {
        m_controls->setFieldValues(withPreset(s, *p));
        m_presetInput = m_controls->input();
    }
    m_controls->setFieldValues(s);
    if (preset < 0)
        warnings << tr("accounting.preset: no preset '%1' in this version; none shown")
                        .arg(QString::fromStdString(s.preset));
    m_presets->setCurrentIndex(std::max(0, preset)); // the box only; the controls hold the file's values
    const QSignalBlocker blockUnits(m_units);
    setByteUnits(s.binaryUnits ? ByteUnits::binary : ByteUnits::decimal); // recomputes
    return warnings;
}
