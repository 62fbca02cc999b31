// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/model/architecture_controls.h"

#include "app/model/advanced_architecture_controls.h"
#include "engine/models/model_presets.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/controls/spin_box_range.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>

using namespace napkin;

namespace {

QString name(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

template <typename Enum>
QComboBox* enumBox(QWidget* parent, std::span<const Enum> values, std::string_view (*toName)(Enum)) {
    auto* box = new QComboBox(parent);
    for (Enum v : values)
        box->addItem(name(toName(v)), static_cast<int>(v));
    return box;
}

template <typename Enum> Enum currentEnum(const QComboBox* box) {
    return static_cast<Enum>(box->currentData().toInt());
}

template <typename Enum> void selectEnum(QComboBox* box, Enum value) {
    box->setCurrentIndex(box->findData(static_cast<int>(value)));
}

QString familyLabel(ArchitectureFamily family) {
    switch (family) {
    case ArchitectureFamily::gpt2:
        return ArchitectureControls::tr("GPT-2 style");
    case ArchitectureFamily::llama:
        return ArchitectureControls::tr("Llama style");
    case ArchitectureFamily::mixtral:
        return ArchitectureControls::tr("Mixtral style (8 experts, top-2)");
    }
    return name(architectureFamilyName(family));
}

constexpr int kCustom = -1; // the family box's entry for a mix of options

} // namespace

ArchitectureControls::ArchitectureControls(QWidget* parent)
    : QGroupBox(tr("Architecture"), parent) {
    m_form = new QFormLayout(this);
    QFormLayout* form = m_form;
    m_family = new QComboBox(this);
    for (ArchitectureFamily f : allArchitectureFamilies())
        m_family->addItem(familyLabel(f), static_cast<int>(f));
    m_family->addItem(tr("custom"), kCustom);
    m_family->setToolTip(tr("Set every option below to a family's choices; the sizes stay as they are."));
    m_kvHeads = new QSpinBox(this);
    setRangeOf(m_kvHeads, ranges::accounting::kvHeads);
    m_kvHeads->setSpecialValueText(tr("= heads (MHA)"));
    m_kvHeads->setToolTip(tr("Key/value heads g: grouped-query attention shares each K and V head among a/g "
                             "query heads (Llama 3: 8). Must divide the heads. config.json: "
                             "num_key_value_heads."));
    m_ffnDim = new QSpinBox(this);
    setRangeOf(m_ffnDim, ranges::accounting::ffnDim);
    m_ffnDim->setSpecialValueText(tr("= multiple × d"));
    m_ffnDim->setToolTip(tr("MLP width f in elements (Llama 3 8B: 14336); overrides the FFN multiple. "
                            "config.json: intermediate_size (GPT-2: n_inner)."));
    m_mlp = enumBox(this, allMlpKinds(), mlpKindName);
    m_mlp->setToolTip(
        tr("GELU: up and down projections (GPT-2). SwiGLU: gate, up and down, 3·d·f weights (Llama). "
           "GeGLU: the same three with GELU on the gate (Gemma). config.json: hidden_act (silu: "
           "SwiGLU, gelu: GeGLU) in the gated families."));
    m_norm = enumBox(this, allNormKinds(), normKindName);
    m_norm->setToolTip(
        tr("LayerNorm has a weight and a bias per channel; RMSNorm only a weight. config.json: "
           "follows model_type (rms_norm_eps in the Llama family)."));
    m_bias = new QCheckBox(tr("&Biases"), this);
    m_bias->setToolTip(tr("Biases in the linear layers and LayerNorms (GPT-2 has them, Llama none); the "
                          "advanced section sets them per projection. config.json: attention_bias, "
                          "mlp_bias, bias (Falcon)."));
    m_embeddings = enumBox(this, allEmbeddingTyings(), embeddingTyingName);
    m_embeddings->setToolTip(tr("Tied: the output head is the token embedding. Untied: its own V×d matrix. "
                                "config.json: tie_word_embeddings."));
    m_position = enumBox(this, allPositionKinds(), positionKindName);
    m_position->setToolTip(tr("Learned: an S×d table of parameters (GPT-2). RoPE: rotations, no parameters. "
                              "config.json: follows model_type (rope_theta)."));
    m_experts = new QSpinBox(this);
    setRangeOf(m_experts, ranges::accounting::experts);
    m_experts->setToolTip(
        tr("Expert MLPs per layer (mixture of experts) with a d×E router; 1 is a dense MLP. "
           "config.json: num_local_experts, num_experts or n_routed_experts."));
    m_topK = new QSpinBox(this);
    setRangeOf(m_topK, ranges::accounting::topK);
    m_topKTip = tr("Experts each token is routed to: the FLOPs count these, the memory all experts. "
                   "config.json: num_experts_per_tok.");
    m_topK->setToolTip(m_topKTip);
    m_dropout = new QCheckBox(tr("&Dropout"), this);
    m_dropout->setToolTip(
        tr("Dropout layers in training: each keeps a 1-byte mask per element for backward."));
    m_attentionImpl = enumBox(this, allAttentionImpls(), attentionImplName);
    m_attentionImpl->setToolTip(
        tr("Eager attention keeps the a·s² scores for backward; flash attention keeps "
           "none and recomputes QKᵀ."));
    form->addRow(tr("&Family:"), m_family);
    form->addRow(tr("&KV heads:"), m_kvHeads);
    form->addRow(tr("FFN &width:"), m_ffnDim);
    form->addRow(tr("&MLP:"), m_mlp);
    form->addRow(tr("&Norm:"), m_norm);
    form->addRow(QString(), m_bias);
    form->addRow(tr("&Embeddings:"), m_embeddings);
    form->addRow(tr("&Positions:"), m_position);
    form->addRow(tr("E&xperts:"), m_experts);
    form->addRow(tr("&Top-k:"), m_topK);
    form->addRow(QString(), m_dropout);
    form->addRow(tr("Attention &kernel:"), m_attentionImpl);
    m_advanced = new AdvancedArchitectureControls(this);
    form->addRow(m_advanced);

    connect(m_family, &QComboBox::activated, this, &ArchitectureControls::onFamilyChosen);
    for (QComboBox* box : {m_mlp, m_norm, m_embeddings, m_position, m_attentionImpl})
        connect(box, &QComboBox::currentIndexChanged, this, &ArchitectureControls::onEdited);
    for (QSpinBox* box : {m_kvHeads, m_ffnDim, m_experts, m_topK}) {
        box->setKeyboardTracking(false); // one change per committed value, not per keystroke
        connect(box, &QSpinBox::valueChanged, this, &ArchitectureControls::onEdited);
    }
    for (QCheckBox* check : {m_bias, m_dropout})
        connect(check, &QCheckBox::toggled, this, &ArchitectureControls::onEdited);
    connect(m_advanced, &AdvancedArchitectureControls::changed, this, &ArchitectureControls::onEdited);
    setModel(ModelSpec{});
}

void ArchitectureControls::writeTo(ModelSpec& m) const {
    m.kvHeads = m_kvHeads->value();
    m.ffnDim = m_ffnDim->value();
    m.mlp = currentEnum<MlpKind>(m_mlp);
    m.norm = currentEnum<NormKind>(m_norm);
    m.bias = m_bias->isChecked();
    m.embeddings = currentEnum<EmbeddingTying>(m_embeddings);
    m.position = currentEnum<PositionKind>(m_position);
    m.experts = m_experts->value();
    m.topK = m_topK->value();
    m.dropout = m_dropout->isChecked();
    m.attentionImpl = currentEnum<AttentionImpl>(m_attentionImpl);
    m_advanced->writeTo(m);
}

void ArchitectureControls::setModel(const ModelSpec& m) {
    m_updating = true;
    m_kvHeads->setValue(static_cast<int>(m.kvHeads));
    m_ffnDim->setValue(static_cast<int>(m.ffnDim));
    selectEnum(m_mlp, m.mlp);
    selectEnum(m_norm, m.norm);
    m_bias->setChecked(m.bias);
    selectEnum(m_embeddings, m.embeddings);
    selectEnum(m_position, m.position);
    m_experts->setValue(static_cast<int>(m.experts));
    m_topK->setValue(static_cast<int>(m.topK));
    m_dropout->setChecked(m.dropout);
    selectEnum(m_attentionImpl, m.attentionImpl);
    m_advanced->setModel(m);
    showFamily(m);
    updateApplicability();
    m_updating = false;
}

void ArchitectureControls::setModelKind(ModelKind kind) {
    m_kind = kind;
    updateApplicability();
}

QWidget* ArchitectureControls::controlFor(const std::string& field) const {
    if (field == "kv-heads")
        return m_kvHeads;
    if (field == "ffn-dim")
        return m_ffnDim;
    if (field == "experts")
        return m_experts;
    if (field == "top-k")
        return m_topK;
    return m_advanced->controlFor(field);
}

void ArchitectureControls::reveal(const QWidget* control) {
    if (control && m_advanced->isAncestorOf(control))
        m_advanced->setExpanded(true);
}

void ArchitectureControls::hideTrainingRows() {
    m_form->setRowVisible(m_dropout, false);
    m_form->setRowVisible(m_attentionImpl, false);
}

void ArchitectureControls::showFamily(const ModelSpec& m) {
    const auto family = architectureFamilyOf(m);
    m_family->setCurrentIndex(m_family->findData(family ? static_cast<int>(*family) : kCustom));
}

void ArchitectureControls::onFamilyChosen(int index) {
    const int data = m_family->itemData(index).toInt();
    if (data == kCustom)
        return;
    ModelSpec m;
    writeTo(m);
    setModel(withArchitectureFamily(m, static_cast<ArchitectureFamily>(data)));
    emit changed();
}

void ArchitectureControls::onEdited() {
    if (m_updating)
        return;
    ModelSpec m;
    writeTo(m);
    showFamily(m);
    updateApplicability();
    emit changed();
}

// A control stays enabled while it holds a value that is not its default, so a user can always undo a
// combination the engine refuses.
void ArchitectureControls::updateApplicability() {
    const bool transformer = m_kind == ModelKind::transformer;
    const QString notTransformer =
        tr("The architecture options describe a transformer; choose Transformer as "
           "the model kind.");
    setToolTip(transformer ? QString() : notTransformer);
    setEnabled(transformer); // and so every control in the group
    const bool topKApplies = m_experts->value() > 1 || m_topK->value() != 1;
    m_topK->setEnabled(topKApplies);
    m_topK->setToolTip(topKApplies ? m_topKTip
                                   : tr("Top-k routes tokens among experts: set experts above 1 first "
                                        "(config.json: num_experts_per_tok)."));
    m_advanced->setMixtureOfExperts(m_experts->value() > 1);
}
