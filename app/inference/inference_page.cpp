// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/inference/inference_page.h"

#include "app/hardware/chosen_hardware_profile.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/inference/explain_inference.h"
#include "app/inference/inference_answers.h"
#include "app/inference/inference_controls.h"
#include "app/model/opened_model_entry.h"
#include "engine/inference/inference_warnings.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/cli_command_line.h"
#include "engine/steptime/inference_time.h"
#include "widgets/charts/decode_throughput_chart.h"
#include "widgets/charts/inference_memory_chart.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/flow_splitter.h"
#include "widgets/controls/page_columns.h"
#include "widgets/controls/panel_scroll_area.h"
#include "widgets/controls/results_column.h"
#include "widgets/text/engine_text.h"

#include <QComboBox>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

using namespace napkin;

namespace {

InferenceMemoryChartData memoryData(const InferenceInput& in, const InferenceResult& r) {
    InferenceMemoryChartData d;
    d.segments = {
        {{InferencePage::tr("weights"), r.memory.weights.value, toQString(r.memory.weights.formula)},
         {InferencePage::tr("KV cache"), r.memory.kvCache.value, toQString(r.memory.kvCache.formula)},
         {InferencePage::tr("activations"), r.memory.activations.value,
          toQString(r.memory.activations.formula)}}};
    d.capacityBytes = r.usableBytes.value; // what fits is judged against, in the chosen basis
    d.usableCapacity = r.overheads.basis == MemoryBasis::usable;
    d.overheadBytes = r.overheads.totalBytes;
    d.fits = r.fits;
    d.gpuLabel =
        in.gpus > 1
            ? InferencePage::tr("one of %1 × %2").arg(toQString(formatNumber(in.gpus)), toQString(in.gpu))
            : InferencePage::tr("one %1").arg(toQString(in.gpu));
    return d;
}

DecodeThroughputChartData throughputData(const InferenceInput& in, const InferenceResult& r,
                                         const BatchSweep& sweep) {
    DecodeThroughputChartData d;
    for (const BatchSweepPoint& p : sweep.points)
        d.points.push_back({p.batch, p.tokensPerSecond, p.computeBound, p.fits});
    d.current = {in.batch, r.decodeTokensPerSecond.value, r.bound == "compute", r.fits};
    d.maxBatch = sweep.maxBatch;
    d.crossoverBatch = sweep.crossoverBatch;
    d.lastBatch = sweep.lastBatch;
    return d;
}

} // namespace

InferencePage::InferencePage(QWidget* parent)
    : QWidget(parent)
    , m_controls(new InferenceControls(this))
    , m_memoryChart(new InferenceMemoryChart(this))
    , m_throughputChart(new DecodeThroughputChart(this))
    , m_answers(new InferenceAnswers(this))
    , m_explain(new ExplainPane(this)) {
    qRegisterMetaType<napkin::InferenceInput>();
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    auto* intro = new QLabel(tr("Serving a model: memory per GPU, and prefill and decode time as the "
                                "roofline's lower bound and as the training step's model predicts them from "
                                "the hardware profile."),
                             left);
    intro->setWordWrap(true);
    leftLayout->addWidget(intro);
    leftLayout->addWidget(m_controls, 1);
    auto* scroll = new PanelScrollArea(left, this);
    m_controlPanel = scroll;

    auto* charts = new FlowSplitter(this);
    charts->addWidget(m_memoryChart);
    charts->addWidget(m_throughputChart);
    charts->setStretchFactor(0, 1);
    charts->setStretchFactor(1, 3);
    auto* right = new ResultsColumn(m_answers, m_explain, this);
    right->addChartPane(charts, 3); // one row of charts: the answers' 3 against it

    layOutPageColumns(this, scroll, right);

    connect(m_controls, &InferenceControls::inputChanged, this, &InferencePage::recompute);
    // The predicted times follow the app's hardware profile, as the Accounting page's step does.
    connect(&ChosenHardwareProfile::instance(), &ChosenHardwareProfile::changed, this,
            &InferencePage::recompute);
    recompute();
}

void InferencePage::recompute() {
    const InferenceInput in = m_controls->input();
    const GpuCatalog& catalog = sessionGpuCatalog(); // with the user's own parts
    const InputError error = validateInference(in, catalog);
    if (!error.ok()) {
        // Keep the last good charts and answers; say what is wrong and where.
        m_error = tr("%1: %2").arg(toQString(error.field), toQString(error.message));
        m_answers->showError(
            tr("Cannot account for this combination — %1. Showing the last valid result, greyed.")
                .arg(m_error));
        m_controls->showFieldError(error.field, toQString(error.message));
        showStale(m_error);
        return;
    }
    m_error.clear();
    m_controls->clearFieldError();
    showStale({});
    const GpuSpec& gpu = *catalog.find(in.gpu);
    m_result = accountInference(in, gpu);
    const BatchSweep sweep = sweepInferenceBatch(in, gpu);
    m_memoryChart->setData(memoryData(in, *m_result));
    m_throughputChart->setData(throughputData(in, *m_result, sweep));
    // An exported chart says the setup it was drawn for: the command that reproduces it.
    const bool opened = m_openedCommand && showsOpenedModel();
    const QString settings = QString::fromStdString(
        withChosenProfileOption(inferCommandLine(in, opened ? &*m_openedCommand : nullptr), in.gpu));
    m_memoryChart->setSettingsCaption(settings);
    m_throughputChart->setSettingsCaption(settings);
    // Prefill and decode from the app's profile where it was measured on this GPU, else the GPU's published
    // one: what `napkin-cli infer [--hardware-profile FILE]` gives.
    m_times = inferenceTimeFromProfile(in, gpu, ChosenHardwareProfile::instance().profileFor(gpu));
    m_answers->setResult(in, *m_result, sweep, m_times);
    QStringList warnings; // what the GPU cannot do with the weight format, a context past the model's
    for (const std::string& w : inferenceWarnings(in, gpu))
        warnings << toQString(w);
    m_answers->setWarnings(warnings);
    m_explain->setHtml(explainInference(in, *m_result, m_times));
    const bool changed = !m_input || !(*m_input == in);
    m_input = in;
    if (changed)
        emit settingChanged(in, *m_result);
}

// As the Accounting page's: the last valid charts and derivation, greyed with the reason while an input is
// invalid (`reason` empty: they match the controls).
void InferencePage::showStale(const QString& reason) {
    m_memoryChart->setStale(reason);
    m_throughputChart->setStale(reason);
    m_explain->browser()->setEnabled(reason.isEmpty());
}

InferenceScenario InferencePage::scenario() const {
    return m_controls->values();
}

QStringList InferencePage::applyScenario(const InferenceScenario& s) {
    m_controls->setValues(s);
    recompute();
    return {};
}

bool InferencePage::showsOpenedModel() const {
    const int opened = openedModelIndex(m_controls->presetBox());
    return opened >= 0 && m_controls->presetBox()->currentIndex() == opened;
}

void InferencePage::setOwnModel(const ModelSpec& model, const QString& label,
                                const std::optional<napkin::CheckpointFormat>& checkpoint) {
    m_controls->setOwnModel(model, label, checkpoint);
    recompute();
}
