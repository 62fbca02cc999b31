// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/accounting_controls.h"

#include "app/accounting/fine_tuning_controls.h"
#include "app/accounting/overhead_controls.h"
#include "app/accounting/parallelism_controls.h"
#include "app/accounting/presets.h"
#include "app/accounting/run_cost_controls.h"
#include "app/accounting/sharding_controls.h"
#include "app/hardware/gpu_chooser_box.h"
#include "app/hardware/hardware_profile_chooser.h"
#include "app/model/architecture_controls.h"
#include "app/model/number_knob_rows.h"
#include "engine/accounting/training_knobs.h"
#include "engine/scenario/accounting_fields.h"
#include "widgets/controls/log_slider_field.h"
#include "widgets/controls/number_field.h"
#include "widgets/controls/spin_box_range.h"
#include "widgets/controls/text_tone.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

using namespace napkin;

namespace {

template <typename Enum> Enum currentEnum(const QComboBox* box) {
    return static_cast<Enum>(box->currentData().toInt());
}

template <typename Enum> void selectEnum(QComboBox* box, Enum value) {
    box->setCurrentIndex(box->findData(static_cast<int>(value)));
}

// An engine name ("mixed-bf16", "selective") as the box shows it: the spelling the CLI and files use.
QString name(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString modelKindLabel(ModelKind kind) {
    switch (kind) {
    case ModelKind::dense:
        return AccountingControls::tr("Dense (N parameters)");
    case ModelKind::cruncher:
        return AccountingControls::tr("Cruncher (deep linear net)");
    case ModelKind::linear2:
        return AccountingControls::tr("Two-layer linear");
    case ModelKind::transformer:
        // Short enough for the control panel in presentation mode's type; the tooltip names the families.
        return AccountingControls::tr("Transformer");
    }
    return name(modelKindName(kind));
}

} // namespace

AccountingControls::AccountingControls(QWidget* parent)
    : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    // --- model ---
    auto* model = new QGroupBox(tr("Model"), this);
    m_modelForm = new QFormLayout(model);
    m_kind = new QComboBox(model);
    for (ModelKind kind : allModelKinds())
        m_kind->addItem(modelKindLabel(kind), static_cast<int>(kind));
    m_kind->setToolTip(
        tr("Which model to account for: a bare parameter count or one of the lecture's architectures "
           "(Transformer: GPT, Llama, MoE and every config.json)."));
    m_params = new LogSliderField(model);
    m_params->setRange(ranges::accounting::parameters.minimum, ranges::accounting::parameters.maximum);
    m_params->setToolTip(tr("Number of parameters N; drag across decades or type 70B."));
    m_dim = makeField(ranges::accounting::dim, tr("Width D of each linear layer."));
    m_layers = makeField(ranges::accounting::layers, tr("Number of layers L."));
    m_out = makeField(ranges::accounting::out, tr("Output width K of the second layer."));
    m_dModel = makeField(ranges::accounting::dModel, tr("Hidden size d (d_model) of the transformer."));
    m_heads = makeField(ranges::accounting::heads, tr("Attention heads a; must divide d."));
    m_vocab = makeField(ranges::accounting::vocab,
                        tr("Vocabulary size V (the embedding is tied to the output head)."));
    m_seq = makeField(ranges::accounting::seq, tr("Tokens per sequence S (context length)."));
    m_ffnTip = tr("MLP width as a multiple of d (4 in GPT-2).");
    m_ffn = makeField(ranges::accounting::ffnMult, m_ffnTip, Fractions::allowed);
    m_modelForm->addRow(tr("&Kind:"), m_kind);
    m_modelForm->addRow(tr("&Parameters:"), m_params);
    m_modelForm->addRow(tr("&Width D:"), m_dim);
    m_modelForm->addRow(tr("&Layers L:"), m_layers);
    m_modelForm->addRow(tr("&Output K:"), m_out);
    m_modelForm->addRow(tr("&d_model:"), m_dModel);
    m_modelForm->addRow(tr("&Heads:"), m_heads);
    m_modelForm->addRow(tr("&Vocabulary:"), m_vocab);
    m_modelForm->addRow(tr("&Sequence:"), m_seq);
    m_modelForm->addRow(tr("FFN &multiple:"), m_ffn);
    layout->addWidget(model);
    m_architecture = new ArchitectureControls(this);
    layout->addWidget(m_architecture);

    // --- training ---
    auto* training = new QGroupBox(tr("Training"), this);
    auto* trainingForm = new QFormLayout(training);
    // The batch, tokens, GPU count and MFU take what their table takes (training_knobs.h), in its words,
    // as napkin-cli and a scenario file do.
    const NumberKnob<AccountingInput>& batch = trainingKnob("batch");
    const NumberKnob<AccountingInput>& tokens = trainingKnob("training_tokens");
    m_batch = makeField(batch);
    m_tokensOn = new QCheckBox(
        QString::fromUtf8(tokens.look.checkText.data(), qsizetype(tokens.look.checkText.size())), training);
    m_tokensOn->setToolTip(tr("Tick to compute training FLOPs, time and GPU-days for the tokens below."));
    m_tokens = new LogSliderField(training);
    // The slider spans the decades a run is planned in; the field takes every value the knob takes.
    m_tokens->setRange(ranges::accounting::trainingTokens.minimum,
                       ranges::accounting::trainingTokens.maximum);
    acceptAsKnob(m_tokens->field(), tokens);
    m_tokens->setToolTip(numberKnobTip(tokens));
    m_precision = new QComboBox(training);
    for (PrecisionRecipe recipe : allPrecisionRecipes())
        m_precision->addItem(name(precisionRecipeName(recipe)), static_cast<int>(recipe));
    m_precision->setToolTip(tr(
        "Which dtype parameters, gradients, master weights, optimizer state and activations are kept in."));
    m_fp32Gradients = new QCheckBox(tr("fp&32 gradients"), training);
    m_fp32Gradients->setToolTip(
        tr("Keep gradients in fp32 under a 16-bit recipe (the 18 B/param AdamW convention)."));
    m_optimizer = new QComboBox(training);
    for (OptimizerKind kind : allOptimizers())
        m_optimizer->addItem(name(optimizerName(kind)), static_cast<int>(kind));
    m_optimizer->setToolTip(
        tr("The optimizer decides how many state tensors each parameter carries (Adam: two)."));
    trainingForm->addRow(numberKnobLabel(batch), m_batch);
    trainingForm->addRow(QString(), m_tokensOn);
    trainingForm->addRow(numberKnobLabel(tokens), m_tokens);
    trainingForm->addRow(tr("P&recision:"), m_precision);
    // What the chosen GPU cannot do with this precision, said beside the choice (gpu_capabilities.h).
    m_capabilityNote = new QLabel(training);
    m_capabilityNote->setObjectName(QStringLiteral("capabilityNote"));
    setTextTone(m_capabilityNote, TextTone::caution);
    m_capabilityNote->setWordWrap(true);
    trainingForm->addRow(QString(), m_capabilityNote);
    trainingForm->setRowVisible(m_capabilityNote, false);
    m_trainingForm = trainingForm;
    trainingForm->addRow(QString(), m_fp32Gradients);
    trainingForm->addRow(tr("Optim&izer:"), m_optimizer);
    layout->addWidget(training);

    // --- hardware ---
    auto* hardware = new QGroupBox(tr("Hardware"), this);
    auto* hardwareForm = new QFormLayout(hardware);
    m_gpu = new GpuChooserBox(hardware); // the session's parts, this machine's GPU, a custom GPU
    m_gpu->setToolTip(tr("GPU type: its datasheet memory and dense peak FLOP/s are used. \"Custom GPU…\" "
                         "defines your own; \"This machine's GPU\" reads the CUDA device here."));
    m_gpus = makeField(trainingKnob("gpus"));
    m_mfu = makeField(trainingKnob("mfu")); // typed: 0.555 stays 0.555 (a 2-decimal box showed 0.56)
    m_zero = new QComboBox(hardware);
    m_zero->addItem(tr("0 — replicate everything"), 0);
    m_zero->addItem(tr("1 — shard optimizer state"), 1);
    m_zero->addItem(tr("2 — also gradients"), 2);
    m_zero->addItem(tr("3 — also parameters"), 3);
    m_zero->setToolTip(tr("ZeRO stage: which model states are sharded across the GPUs."));
    m_recompute = new QComboBox(hardware);
    for (Recompute recompute : allRecomputes())
        m_recompute->addItem(name(recomputeName(recompute)), static_cast<int>(recompute));
    m_recompute->setToolTip(
        tr("Activation recomputation trades FLOPs for activation memory (transformers only)."));
    m_attention = new QComboBox(hardware);
    for (AttentionMask mask : allAttentionMasks())
        m_attention->addItem(name(attentionMaskName(mask)), static_cast<int>(mask));
    m_attention->setToolTip(tr("Causal attention computes half the score FLOPs of full attention."));
    m_activationsOf = new QComboBox(hardware);
    m_activationsOf->addItem(tr("Megatron's formula"), static_cast<int>(ActivationProfile::megatron));
    m_activationsOf->addItem(tr("PyTorch eager, tensor by tensor"),
                             static_cast<int>(ActivationProfile::pytorchEager));
    m_activationsOf->setToolTip(
        tr("Whose saved activations the ledger lists: Megatron-LM's (Korthikanti et al. 2022), or what "
           "PyTorch eager autograd keeps for a GPT-2- or Llama-style model, checked byte for byte against "
           "torch (docs/validation.md). --activations-of on the command line."));
    hardwareForm->addRow(tr("&GPU:"), m_gpu);
    hardwareForm->addRow(numberKnobLabel(trainingKnob("gpus")), m_gpus);
    hardwareForm->addRow(numberKnobLabel(trainingKnob("mfu")), m_mfu);
    hardwareForm->addRow(new HardwareProfileChooser(hardware)); // the step time's profile (the app's one)
    hardwareForm->addRow(tr("&ZeRO stage:"), m_zero);
    hardwareForm->addRow(tr("R&ecompute:"), m_recompute);
    hardwareForm->addRow(tr("&Attention:"), m_attention);
    hardwareForm->addRow(tr("Acti&vations of:"), m_activationsOf);
    // How torch.optim runs the update sets pytorch-eager's optimizer-step temporaries (Megatron's is fused).
    m_optimizerImplementation = new QComboBox(hardware);
    m_optimizerImplementation->addItem(tr("foreach (torch 2 on a GPU)"),
                                       static_cast<int>(OptimizerImplementation::forEach));
    m_optimizerImplementation->addItem(tr("single-tensor (the CPU's)"),
                                       static_cast<int>(OptimizerImplementation::singleTensor));
    m_optimizerImplementation->addItem(tr("fused"), static_cast<int>(OptimizerImplementation::fused));
    m_optimizerImplementation->setToolTip(
        tr("How torch.optim runs the update under PyTorch eager: foreach holds lists as large as all the "
           "parameters, single-tensor one parameter's temporaries at a time, fused none "
           "(docs/memory-timeline.md). --optimizer-implementation on the command line."));
    hardwareForm->addRow(tr("torch.optim &update:"), m_optimizerImplementation);
    layout->addWidget(hardware);
    m_parallelism = new ParallelismControls(this);
    layout->addWidget(m_parallelism);
    m_sharding = new ShardingControls(this);
    layout->addWidget(m_sharding);
    m_fineTuning = new FineTuningControls(this);
    layout->addWidget(m_fineTuning);
    m_runCost = new RunCostControls(this);
    layout->addWidget(m_runCost);
    m_overheads = new OverheadControls(this);
    layout->addWidget(m_overheads);
    layout->addStretch(1);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &AccountingControls::showRowsForModel);
    for (QComboBox* box : {m_kind, m_precision, m_optimizer, m_gpu, m_zero, m_recompute, m_attention,
                           m_activationsOf, m_optimizerImplementation})
        connect(box, &QComboBox::currentIndexChanged, this, &AccountingControls::emitChanged);
    for (LogSliderField* f : {m_params, m_tokens})
        connect(f, &LogSliderField::valueChanged, this, &AccountingControls::emitChanged);
    for (QCheckBox* c : {m_tokensOn, m_fp32Gradients})
        connect(c, &QCheckBox::toggled, this, &AccountingControls::emitChanged);
    connect(m_tokensOn, &QCheckBox::toggled, m_tokens, &QWidget::setEnabled);
    connect(m_architecture, &ArchitectureControls::changed, this, &AccountingControls::emitChanged);
    connect(m_parallelism, &ParallelismControls::changed, this, &AccountingControls::emitChanged);
    connect(m_sharding, &ShardingControls::changed, this, &AccountingControls::emitChanged);
    connect(m_fineTuning, &FineTuningControls::changed, this, &AccountingControls::emitChanged);
    connect(m_runCost, &RunCostControls::changed, this, &AccountingControls::emitChanged);
    connect(m_overheads, &OverheadControls::changed, this, &AccountingControls::emitChanged);

    // Every kind's fields start with sensible values (GPT-2 small, the lecture's Cruncher), hidden rows
    // included: setInput() fills only the selected kind's rows, which left D, L and K at 0 (out of
    // range, so a saved scenario could not be read back). One source: the engine's fresh scenario.
    setFieldValues(AccountingScenario{});
}

NumberField* AccountingControls::makeField(ControlRange range, const QString& tip, Fractions fractions) {
    auto* field = new NumberField(this);
    field->setRange(range.minimum, range.maximum);
    field->setWholeNumbers(fractions == Fractions::refused);
    field->setToolTip(tip);
    field->setFocusProxy(field->lineEdit());
    connect(field, &NumberField::valueEdited, this, &AccountingControls::emitChanged);
    return field;
}

NumberField* AccountingControls::makeField(const NumberKnob<AccountingInput>& knob) {
    NumberField* field = numberKnobField(knob, this);
    field->setFocusProxy(field->lineEdit());
    connect(field, &NumberField::valueEdited, this, &AccountingControls::emitChanged);
    return field;
}

AccountingInput AccountingControls::input() const {
    AccountingInput in;
    in.model.kind = currentEnum<ModelKind>(m_kind);
    in.model.parameters = m_params->value();
    in.model.dim = m_dim->value();
    in.model.layers = m_layers->value();
    in.model.out = m_out->value();
    in.model.dModel = m_dModel->value();
    in.model.heads = m_heads->value();
    in.model.vocab = m_vocab->value();
    // Dense models show no sequence row: a "token" is one example there, as on the command line.
    in.model.seq = in.model.kind == ModelKind::transformer ? m_seq->value() : 1.0;
    in.model.ffnMult = m_ffn->value();
    in.batch = m_batch->value();
    if (m_tokensOn->isChecked())
        in.trainingTokens = m_tokens->value();
    in.precision = currentEnum<PrecisionRecipe>(m_precision);
    in.fp32Gradients = m_fp32Gradients->isChecked();
    in.optimizer = currentEnum<OptimizerKind>(m_optimizer);
    in.gpu = m_gpu->currentData().toString().toStdString();
    in.gpus = m_gpus->value();
    in.mfu = m_mfu->value();
    in.zeroStage = m_zero->currentData().toInt();
    in.recompute = currentEnum<Recompute>(m_recompute);
    in.attention = currentEnum<AttentionMask>(m_attention);
    m_architecture->writeTo(in.model);
    in.model.activationsOf = currentEnum<ActivationProfile>(m_activationsOf);
    in.optimizerImplementation = currentEnum<OptimizerImplementation>(m_optimizerImplementation);
    in.parallel = m_parallelism->parallel();
    in.sharding = m_sharding->options();
    in.fineTuning = m_fineTuning->fineTuning();
    in.cost = m_runCost->cost();
    in.overheads = m_overheads->settings();
    return in;
}

void AccountingControls::setInput(const AccountingInput& in) {
    // Fields of other model kinds keep their values, so switching kind back restores them.
    setFieldValues(withInput(fieldValues(), in));
}

void AccountingControls::showRowsForModel() {
    const ModelKind kind = currentEnum<ModelKind>(m_kind);
    const bool transformer = kind == ModelKind::transformer;
    m_modelForm->setRowVisible(m_params, kind == ModelKind::dense);
    m_modelForm->setRowVisible(m_dim, kind == ModelKind::cruncher || kind == ModelKind::linear2);
    m_modelForm->setRowVisible(m_layers, kind == ModelKind::cruncher || transformer);
    m_modelForm->setRowVisible(m_out, kind == ModelKind::linear2);
    m_modelForm->setRowVisible(m_dModel, transformer);
    m_modelForm->setRowVisible(m_heads, transformer);
    m_modelForm->setRowVisible(m_vocab, transformer);
    m_modelForm->setRowVisible(m_seq, transformer);
    m_modelForm->setRowVisible(m_ffn, transformer);
    m_recompute->setEnabled(transformer);
    m_attention->setEnabled(transformer);
    m_activationsOf->setEnabled(transformer);
    updateApplicability();
}

void AccountingControls::emitChanged() {
    if (m_updating)
        return;
    updateApplicability();
    emit inputChanged();
}

// What the architecture and the parallel layout allow follows the model kind, the options and the GPUs.
void AccountingControls::updateApplicability() {
    const AccountingInput in = input();
    m_architecture->setModelKind(in.model.kind);
    m_parallelism->setContext(in.model, in.gpus);
    m_sharding->setZeroStage(in.zeroStage);
    m_optimizerImplementation->setEnabled(in.model.kind == ModelKind::transformer &&
                                          in.model.activationsOf == ActivationProfile::pytorchEager);
    const bool widthSet = in.model.ffnDim > 0;
    m_ffn->setEnabled(!widthSet);
    m_ffn->setToolTip(widthSet
                          ? tr("Overridden by the FFN width in Architecture (set it to its lowest value to "
                               "use the multiple).")
                          : m_ffnTip);
}

QWidget* AccountingControls::controlFor(const std::string& field) const {
    if (QWidget* w = m_architecture->controlFor(field))
        return w;
    if (QWidget* w = m_parallelism->controlFor(field))
        return w;
    if (QWidget* w = m_sharding->controlFor(field))
        return w;
    if (QWidget* w = m_fineTuning->controlFor(field))
        return w;
    if (QWidget* w = m_runCost->controlFor(field))
        return w;
    if (QWidget* w = m_overheads->controlFor(field))
        return w;
    const std::pair<const char*, QWidget*> controls[] = {
        {"params", m_params},
        {"dim", m_dim},
        {"layers", m_layers},
        {"out", m_out},
        {"d-model", m_dModel},
        {"heads", m_heads},
        {"vocab", m_vocab},
        {"seq", m_seq},
        {"ffn-mult", m_ffn},
        {"batch", m_batch},
        {"tokens", m_tokens},
        {"gpus", m_gpus},
        {"mfu", m_mfu},
        {"zero", m_zero},
        {"gpu", m_gpu},
        {"precision", m_precision},
        {"activations-of", m_activationsOf},
        {"optimizer-implementation", m_optimizerImplementation}};
    for (const auto& [name, control] : controls)
        if (field == name)
            return control;
    return nullptr;
}

void AccountingControls::showFieldError(const std::string& field, const QString& message) {
    clearFieldError();
    QWidget* control = controlFor(field);
    m_architecture->reveal(control); // a knob of the collapsed advanced section opens it
    auto* form = control ? qobject_cast<QFormLayout*>(control->parentWidget()->layout()) : nullptr;
    m_fieldError.show(form, control, message);
}

void AccountingControls::clearFieldError() {
    m_fieldError.clear();
}

void AccountingControls::setCapabilityNote(const QString& note) {
    m_capabilityNote->setText(note);
    m_trainingForm->setRowVisible(m_capabilityNote, !note.isEmpty());
}

QString AccountingControls::capabilityNoteText() const {
    return m_capabilityNote->text();
}

QString AccountingControls::fieldErrorText() const {
    return m_fieldError.text();
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

AccountingScenario AccountingControls::fieldValues() const {
    AccountingScenario s;
    s.input = input();
    // input() answers what to account for; a scenario also keeps what the hidden rows hold.
    s.input.model.seq = m_seq->value();
    s.tokensShown = m_tokens->value();
    return s;
}

void AccountingControls::setFieldValues(const AccountingScenario& values) {
    const AccountingInput& in = values.input;
    m_updating = true;
    selectEnum(m_kind, in.model.kind);
    m_params->setValue(in.model.parameters);
    m_dim->setValue(in.model.dim);
    m_layers->setValue(in.model.layers);
    m_out->setValue(in.model.out);
    m_dModel->setValue(in.model.dModel);
    m_heads->setValue(in.model.heads);
    m_vocab->setValue(in.model.vocab);
    m_seq->setValue(in.model.seq);
    m_ffn->setValue(in.model.ffnMult);
    m_batch->setValue(in.batch);
    m_tokensOn->setChecked(in.trainingTokens.has_value());
    m_tokens->setEnabled(in.trainingTokens.has_value());
    m_tokens->setValue(in.trainingTokens.value_or(values.tokensShown));
    selectEnum(m_precision, in.precision);
    m_fp32Gradients->setChecked(in.fp32Gradients);
    selectEnum(m_optimizer, in.optimizer);
    m_gpu->setCurrentIndex(std::max(0, m_gpu->findData(QString::fromStdString(in.gpu))));
    m_gpus->setValue(in.gpus);
    m_mfu->setValue(in.mfu);
    m_zero->setCurrentIndex(m_zero->findData(in.zeroStage));
    selectEnum(m_recompute, in.recompute);
    selectEnum(m_attention, in.attention);
    selectEnum(m_activationsOf, in.model.activationsOf);
    selectEnum(m_optimizerImplementation, in.optimizerImplementation);
    m_architecture->setModel(in.model);
    m_parallelism->setParallel(in.parallel);
    m_sharding->setOptions(in.sharding);
    m_sharding->setZeroStage(in.zeroStage);
    m_fineTuning->setFineTuning(in.fineTuning);
    m_runCost->setCost(in.cost);
    m_overheads->setSettings(in.overheads);
    showRowsForModel();
    m_updating = false;
}
