// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/inference/inference_controls.h"

#include "app/hardware/gpu_chooser_box.h"
#include "app/model/architecture_controls.h"
#include "app/model/number_knob_rows.h"
#include "app/model/opened_model_entry.h"
#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/preset_groups.h"
#include "engine/inference/inference_knobs.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/controls/grouped_combo_box.h"
#include "widgets/controls/log_slider_field.h"
#include "widgets/text/engine_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

using namespace napkin;

namespace {

void selectData(QComboBox* box, const QString& data) {
    box->setCurrentIndex(std::max(0, box->findData(data)));
}

/// A new model starts at its own context (napkin-cli infer's default), within the slider's range.
double startingContext(const ModelSpec& model) {
    return std::min(model.seq, inferenceKnob("context").range.high);
}

/// A serving knob (inference_knobs.h) on a log slider: the table's range and tooltip.
LogSliderField* knobSlider(std::string_view key, QWidget* parent) {
    const NumberKnob<InferenceInput>& knob = inferenceKnob(key);
    auto* slider = new LogSliderField(parent);
    slider->setRange(knob.range.low, knob.range.high);
    slider->setToolTip(numberKnobTip(knob));
    return slider;
}

} // namespace

InferenceControls::InferenceControls(QWidget* parent)
    : QWidget(parent)
    , m_form(new QFormLayout)
    , m_preset(new QComboBox(this))
    , m_architecture(new ArchitectureControls(this))
    , m_architectureToggle(new QToolButton(this))
    , m_gpu(new GpuChooserBox(this))
    , m_gpus(numberKnobSpinBox(inferenceKnob("gpus"), this))
    , m_weights(new QComboBox(this))
    , m_weightsNote(new QLabel(this))
    , m_groupSize(numberKnobSpinBox(inferenceKnob("group_size"), this))
    , m_kvCache(new QComboBox(this))
    , m_context(knobSlider("context", this))
    , m_batch(knobSlider("batch", this))
    , m_promptIsContext(new QCheckBox(tr("prompt = context"), this))
    , m_prompt(knobSlider("context", this)) {
    m_prompt->setToolTip(tr("Prompt P: tokens prefilled per sequence in one pass; at most the context. --prompt"));
    for (const PresetGroup& group : inferencePresetGroups()) {
        addGroupHeader(m_preset, toQString(group.family));
        for (const PresetEntry& e : group.entries) {
            m_preset->addItem(toQString(e.name), toQString(e.id));
            m_preset->setItemData(m_preset->count() - 1, toQString(e.name), kPresetNameRole);
            const ModelPreset* published = findModelPreset(e.id);
            m_preset->setItemData(m_preset->count() - 1,
                                  published ? toQString(published->source)
                                            : tr("Its shipped config.json (%1.json)").arg(toQString(e.id)),
                                  Qt::ToolTipRole);
        }
    }
    m_preset->setToolTip(tr("A published model or a shipped config.json, grouped by family; File ▸ Open "
                            "model config… adds your own. The Architecture group below edits it."));
    // Its width does not follow the chosen name: "… (modified)" must not widen the panel.
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(20);
    m_architecture->hideTrainingRows(); // dropout and the attention kernel do not change serving
    m_architectureToggle->setText(tr("Edit the architecture"));
    m_architectureToggle->setCheckable(true);
    m_architectureToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_architectureToggle->setAutoRaise(true);
    m_architectureToggle->setToolTip(tr("The chosen model's architecture (KV heads, MLP, experts, sliding "
                                        "window, latent attention, ...), to change one knob and see what "
                                        "serving it costs; the model box then says \"(modified)\"."));
    m_gpu->setToolTip(tr("The GPU's datasheet memory, bandwidth and peak (the catalog's figures)."));
    for (const WeightFormat w : allWeightFormats())
        m_weights->addItem(toQString(weightFormatName(w)), toQString(weightFormatName(w)));
    m_weights->setToolTip(tr("How the layers' matmul weights are stored; int8 and int4 with an fp16 scale "
                             "per group, computed in bf16."));
    for (const StorageType t : kvCacheTypes())
        m_kvCache->addItem(toQString(storageTypeName(t)), toQString(storageTypeName(t)));
    m_kvCache->setToolTip(tr("Element type of the cached keys and values."));
    m_memoryBasis = new QComboBox(this);
    m_memoryBasis->setObjectName(QStringLiteral("inferenceMemoryBasis"));
    m_memoryBasis->addItem(tr("usable + overheads"), QStringLiteral("usable"));
    m_memoryBasis->addItem(tr("datasheet, no overheads"), QStringLiteral("datasheet"));
    m_memoryBasis->setToolTip(tr("What “fits” is judged against: the memory the driver reports with the CUDA "
                                 "context, a cuBLAS workspace and NCCL's buffers on top of the total, as "
                                 "training is judged; or the datasheet's figure and nothing else. "
                                 "--memory-basis"));
    m_context->setSignificantDigits(4);
    m_prompt->setSignificantDigits(4);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_form->addRow(tr("&Model:"), m_preset);
    m_form->addRow(tr("&GPU:"), m_gpu);
    m_form->addRow(numberKnobLabel(inferenceKnob("gpus")), m_gpus);
    m_form->addRow(tr("&Weights:"), m_weights);
    m_weightsNote->setWordWrap(true);
    m_weightsNote->setObjectName(QStringLiteral("weightsNote"));
    m_form->addRow(QString(), m_weightsNote);
    m_form->setRowVisible(m_weightsNote, false);
    m_form->addRow(numberKnobLabel(inferenceKnob("group_size")), m_groupSize);
    m_form->addRow(tr("&KV cache:"), m_kvCache);
    m_form->addRow(tr("Memory &basis:"), m_memoryBasis);
    m_form->addRow(numberKnobLabel(inferenceKnob("context")), m_context);
    m_form->addRow(numberKnobLabel(inferenceKnob("batch")), m_batch);
    m_form->addRow(tr("&Prompt P:"), m_promptIsContext);
    m_form->addRow(QString(), m_prompt);
    // The price of a GPU-hour, for the cost of a million tokens (the same flag as training's cost).
    const std::span<const NumberKnob<InferenceInput>> price(&inferenceKnob("price_per_gpu_hour"), 1);
    const NumberKnobRow priceRow = addNumberKnobRows(m_form, this, price).front();
    m_priceOn = priceRow.check;
    m_price = priceRow.box;
    m_price->setValue(price.front().look.shownWhenUnset);
    m_price->setEnabled(false);
    layout->addLayout(m_form);
    layout->addWidget(m_architectureToggle, 0, Qt::AlignLeft);
    layout->addWidget(m_architecture);
    layout->addStretch(1);
    setValues(InferenceScenario{});
    setArchitectureShown(false);
    connect(m_architectureToggle, &QToolButton::toggled, this, &InferenceControls::setArchitectureShown);

    // A new model starts at its own context (napkin-cli infer's default), so that GPT-2's 1024 learned
    // positions are not asked for 8192 tokens.
    connect(m_preset, &QComboBox::currentIndexChanged, this, &InferenceControls::onModelChosen);
    connect(m_architecture, &ArchitectureControls::changed, this, &InferenceControls::inputChanged);
    connect(this, &InferenceControls::inputChanged, this, &InferenceControls::showModified);
    for (QComboBox* box : {m_preset, m_gpu, m_weights, m_kvCache, m_memoryBasis})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            updateEnabled();
            emit inputChanged();
        });
    for (QSpinBox* spin : {m_gpus, m_groupSize})
        connect(spin, &QSpinBox::valueChanged, this, &InferenceControls::inputChanged);
    connect(m_priceOn, &QCheckBox::toggled, this, [this](bool on) {
        m_price->setEnabled(on);
        emit inputChanged();
    });
    connect(m_price, &QDoubleSpinBox::valueChanged, this, &InferenceControls::inputChanged);
    connect(m_context, &LogSliderField::valueChanged, this, &InferenceControls::showPrompt);
    connect(m_prompt, &LogSliderField::valueChanged, this, [this](double prompt) { m_ownPrompt = prompt; });
    for (LogSliderField* slider : {m_context, m_batch, m_prompt})
        connect(slider, &LogSliderField::valueChanged, this, &InferenceControls::inputChanged);
    connect(m_promptIsContext, &QCheckBox::toggled, this, [this](bool same) {
        if (!same) // a prompt of its own starts within the context, never as a refused combination
            m_ownPrompt = std::min(m_ownPrompt, m_context->value());
        showPrompt();
        updateEnabled();
        emit inputChanged();
    });
}

void InferenceControls::onModelChosen() {
    const QString id = m_preset->currentData().toString();
    if (id.isEmpty()) {
        m_entryModel = m_ownModel;
    } else if (const std::optional<ModelSpec> model = namedModel(id.toStdString())) {
        m_entryModel = *model;
    }
    m_model = m_entryModel;
    m_architecture->setModel(m_model);
    m_checkpoint = checkpointOf(id);
    showCheckpointFormat();
    const double seq = startingContext(m_model);
    m_context->setValue(seq);
    m_ownPrompt = std::min(m_ownPrompt, seq);
    showPrompt();
}

std::optional<CheckpointFormat> InferenceControls::checkpointOf(const QString& id) const {
    if (id.isEmpty())
        return m_ownCheckpoint;
    if (const ZooModel* zoo = findZooModel(id.toStdString())) {
        const HfConfigResult read = zooModelConfig(*zoo);
        if (read.ok())
            return read.config->checkpointFormat;
    }
    return std::nullopt;
}

void InferenceControls::showCheckpointFormat() {
    const QSignalBlocker blockWeights(m_weights), blockGroup(m_groupSize);
    if (m_checkpoint) {
        selectData(m_weights, toQString(weightFormatName(m_checkpoint->weights)));
        if (hasGroupScales(m_checkpoint->weights))
            m_groupSize->setValue(static_cast<int>(m_checkpoint->groupSize));
        m_weightsFromCheckpoint = true;
    } else if (m_weightsFromCheckpoint) {
        selectData(m_weights, toQString(weightFormatName(WeightFormat::bf16)));
        m_weightsFromCheckpoint = false;
    }
    updateEnabled();
}

QString InferenceControls::weightsNoteText() const {
    if (!m_checkpoint)
        return {};
    const WeightFormat chosen = *weightFormatFromName(m_weights->currentData().toString().toStdString());
    if (chosen == m_checkpoint->weights)
        return tr("The checkpoint's own format: %1").arg(QString::fromStdString(m_checkpoint->description));
    return tr("The checkpoint ships in %1; priced in the format chosen here.")
        .arg(toQString(weightFormatName(m_checkpoint->weights)));
}

void InferenceControls::showWeightsNote() {
    const QString text = weightsNoteText();
    m_weightsNote->setText(text);
    m_form->setRowVisible(m_weightsNote, !text.isEmpty());
}

void InferenceControls::setOwnModel(const ModelSpec& model, const QString& label,
                                    const std::optional<CheckpointFormat>& checkpoint) {
    m_ownModel = model;
    m_ownCheckpoint = checkpoint;
    {
        const QSignalBlocker blockPreset(m_preset), blockContext(m_context), blockPrompt(m_prompt);
        showOwnModelEntry(label);
        onModelChosen();
    }
    updateEnabled();
    showModified();
}

void InferenceControls::showOwnModelEntry(const QString& label) {
    m_preset->setCurrentIndex(showOpenedModelEntry(m_preset, label));
}

bool InferenceControls::isArchitectureShown() const {
    return m_architectureToggle->isChecked();
}

void InferenceControls::setArchitectureShown(bool shown) {
    if (m_architectureToggle->isChecked() != shown)
        m_architectureToggle->setChecked(shown); // re-enters through toggled
    m_architectureToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    m_architecture->setVisible(shown);
}

void InferenceControls::showModified() {
    const int index = m_preset->currentIndex();
    const QString name = m_preset->itemData(index, kPresetNameRole).toString();
    if (index < 0 || name.isEmpty())
        return;
    ModelSpec shown = m_model;
    m_architecture->writeTo(shown);
    const QString text = shown == m_entryModel ? name : tr("%1 (modified)").arg(name);
    if (m_preset->itemText(index) != text)
        m_preset->setItemText(index, text);
}

void InferenceControls::showPrompt() {
    m_prompt->setValue(m_promptIsContext->isChecked() ? m_context->value() : m_ownPrompt);
}

void InferenceControls::updateEnabled() {
    m_groupSize->setEnabled(
        hasGroupScales(*weightFormatFromName(m_weights->currentData().toString().toStdString())));
    showWeightsNote();
    m_prompt->setEnabled(!m_promptIsContext->isChecked());
}

InferenceInput InferenceControls::input() const {
    return values().input;
}

InferenceScenario InferenceControls::values() const {
    InferenceScenario s;
    s.preset = m_preset->currentData().toString().toStdString();
    InferenceInput& in = s.input;
    in.model = m_model;
    m_architecture->writeTo(in.model);
    in.gpu = m_gpu->currentData().toString().toStdString();
    in.gpus = m_gpus->value();
    in.weights = *weightFormatFromName(m_weights->currentData().toString().toStdString());
    in.groupSize = m_groupSize->value();
    // The checkpoint's scope (gpt-oss: the experts alone) goes with its own format only.
    in.expertsOnly = m_checkpoint && in.weights == m_checkpoint->weights && m_checkpoint->expertsOnly;
    in.kvCache = *storageTypeFromName(m_kvCache->currentData().toString().toStdString());
    in.context = m_context->value();
    in.batch = m_batch->value();
    s.promptShown = m_ownPrompt;
    in.prompt = m_promptIsContext->isChecked() ? std::nullopt : std::optional<double>(s.promptShown);
    if (m_priceOn->isChecked())
        in.pricePerGpuHour = m_price->value();
    in.overheads = m_overheads;
    in.overheads.basis = *memoryBasisFromName(m_memoryBasis->currentData().toString().toStdString());
    return s;
}

void InferenceControls::setValues(const InferenceScenario& s) {
    const QSignalBlocker b1(m_preset), b2(m_gpu), b3(m_gpus), b4(m_weights), b5(m_groupSize), b6(m_kvCache),
        b7(m_context), b8(m_batch), b9(m_promptIsContext), b10(m_prompt), b11(m_priceOn), b12(m_price),
        b13(m_memoryBasis);
    const InferenceInput& in = s.input;
    if (s.preset.empty()) { // a config of its own: the file holds the whole model
        m_ownModel = in.model;
        const int own = openedModelIndex(m_preset);
        showOwnModelEntry(own >= 0 ? m_preset->itemData(own, kPresetNameRole).toString()
                                   : tr("Model from the scenario"));
        m_entryModel = m_ownModel;
    } else {
        selectData(m_preset, QString::fromStdString(s.preset));
        m_entryModel = namedModel(s.preset).value_or(in.model);
    }
    m_checkpoint = checkpointOf(QString::fromStdString(s.preset));
    m_weightsFromCheckpoint = m_checkpoint && m_checkpoint->weights == in.weights;
    m_model = in.model;
    m_architecture->setModel(in.model);
    selectData(m_gpu, QString::fromStdString(in.gpu));
    m_gpus->setValue(static_cast<int>(in.gpus));
    selectData(m_weights, toQString(weightFormatName(in.weights)));
    m_groupSize->setValue(static_cast<int>(in.groupSize));
    selectData(m_kvCache, toQString(storageTypeName(in.kvCache)));
    m_overheads = in.overheads;
    selectData(m_memoryBasis, toQString(memoryBasisName(in.overheads.basis)));
    m_context->setValue(in.context);
    m_batch->setValue(in.batch);
    m_promptIsContext->setChecked(!in.prompt.has_value());
    m_ownPrompt = in.prompt.value_or(s.promptShown);
    m_priceOn->setChecked(in.pricePerGpuHour.has_value());
    m_price->setValue(in.pricePerGpuHour.value_or(inferenceKnob("price_per_gpu_hour").look.shownWhenUnset));
    m_price->setEnabled(in.pricePerGpuHour.has_value());
    showPrompt();
    updateEnabled();
    showModified();
}

QWidget* InferenceControls::controlFor(const std::string& field) const {
    if (QWidget* w = m_architecture->controlFor(field))
        return w;
    const std::pair<const char*, QWidget*> controls[] = {
        {"gpu", m_gpu},          {"gpus", m_gpus},       {"weights", m_weights}, {"group-size", m_groupSize},
        {"kv-cache", m_kvCache}, {"context", m_context}, {"batch", m_batch},     {"prompt", m_prompt}};
    for (const auto& [name, control] : controls)
        if (field == name)
            return control;
    if (field == "price-per-gpu-hour") // the row of the checkbox and the price: a row of the form
        return m_price->parentWidget();
    return m_preset; // the model's own fields come from the preset
}

void InferenceControls::showFieldError(const std::string& field, const QString& message) {
    clearFieldError();
    QWidget* control = controlFor(field);
    if (m_architecture->isAncestorOf(control)) { // a knob of a collapsed section opens it
        setArchitectureShown(true);
        m_architecture->reveal(control);
    }
    // The serving controls sit in this widget's form; the architecture's in the group's own forms.
    QFormLayout* form = m_architecture->isAncestorOf(control)
                            ? qobject_cast<QFormLayout*>(control->parentWidget()->layout())
                            : m_form;
    m_fieldError.show(form, control, message);
}

void InferenceControls::clearFieldError() {
    m_fieldError.clear();
}

QString InferenceControls::fieldErrorText() const {
    return m_fieldError.text();
}
