// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/model/advanced_architecture_controls.h"

#include "engine/scenario/control_ranges.h"
#include "widgets/controls/spin_box_range.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

using namespace napkin;

namespace {

QString name(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

template <typename Enum>
QComboBox* enumBox(QWidget* parent, std::span<const Enum> values, std::string_view (*toName)(Enum),
                   const QString& tip) {
    auto* box = new QComboBox(parent);
    for (Enum v : values)
        box->addItem(name(toName(v)), static_cast<int>(v));
    box->setToolTip(tip);
    return box;
}

template <typename Enum> Enum currentEnum(const QComboBox* box) {
    return static_cast<Enum>(box->currentData().toInt());
}

template <typename Enum> void selectEnum(QComboBox* box, Enum value) {
    box->setCurrentIndex(box->findData(static_cast<int>(value)));
}

// A per-projection bias: its own setting, or following the Biases switch (unset).
constexpr int kFollowsBias = -1;

std::optional<bool> biasOf(const QComboBox* box) {
    const int v = box->currentData().toInt();
    return v == kFollowsBias ? std::nullopt : std::optional<bool>(v == 1);
}

void showBias(QComboBox* box, const std::optional<bool>& bias) {
    box->setCurrentIndex(box->findData(bias ? (*bias ? 1 : 0) : kFollowsBias));
}

QLabel* heading(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

} // namespace

AdvancedArchitectureControls::AdvancedArchitectureControls(QWidget* parent)
    : QWidget(parent)
    , m_toggle(new QToolButton(this))
    , m_body(new QWidget(this))
    , m_form(new QFormLayout(m_body)) {
    m_toggle->setCheckable(true);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setArrowType(Qt::RightArrow);
    m_toggle->setAutoRaise(true);
    m_toggle->setToolTip(tr("What today's families add (Gemma, Qwen, OLMo, Falcon, DeepSeek): head width, "
                            "QK-norm, sliding window, biases per projection, norm placement, latent "
                            "attention, expert widths. A config.json sets them."));
    QWidget* b = m_body;
    m_headDim = makeSpin(ranges::accounting::headDim, tr("= d / heads"),
                         tr("Width d_h of one attention head, when it is not d/heads (Gemma 7B: 256 on "
                            "d = 3072 with 16 heads). config.json: head_dim."));
    m_qkNorm = enumBox(b, allQkNorms(), qkNormName,
                       tr("RMSNorm on queries and keys before the scores: per head (one d_h weight each, "
                          "Qwen3, Gemma 3) or whole (over all a·d_h query and g·d_h key channels, OLMo-2). "
                          "config.json: follows model_type (qwen3, gemma3, olmo2)."));
    m_slidingWindow = makeSpin(ranges::accounting::slidingWindow, tr("none"),
                               tr("W: a windowed layer attends to, and caches, only the last W tokens "
                                  "(Mistral 7B: 4096). config.json: sliding_window (Qwen2: with "
                                  "use_sliding_window)."));
    m_globalEvery = makeSpin(ranges::accounting::globalEvery, tr("none"),
                             tr("With a window, every k-th layer attends to the whole context (Gemma 2: 2, "
                                "Gemma 3: 6); none: every layer is windowed. config.json: "
                                "sliding_window_pattern (2 for gemma2)."));
    m_pattern = new QCheckBox(b);
    m_pattern->setToolTip(
        tr("The config's own choice per layer, windowed or global. config.json: layer_types "
           "(\"sliding_attention\", \"full_attention\") or Qwen2's max_window_layers. "
           "Untick to use \"Global every\" instead."));
    m_normPlacement = enumBox(b, allNormPlacements(), normPlacementName,
                              tr("pre: a norm before attention and before the MLP (GPT-2, Llama; 2 a layer); "
                                 "post: after them (OLMo-2; 2); sandwich: both (Gemma 2 and 3; 4); parallel: "
                                 "one norm feeding both (Falcon 7B; 1). config.json: follows model_type "
                                 "(gemma2, gemma3, olmo2; falcon's parallel_attn)."));
    m_qkvBias = makeBiasBox(tr("Biases on the q, k and v projections (Qwen2: on alone). config.json: "
                               "attention_bias (Llama family), always on for qwen2, bias (Falcon)."));
    m_outBias = makeBiasBox(tr("Bias on the attention output projection. config.json: attention_bias "
                               "(Llama family), bias (Falcon)."));
    m_mlpBias = makeBiasBox(tr("Biases in the MLP and in every expert. config.json: mlp_bias (Llama family), "
                               "bias (Falcon)."));
    m_normBias = makeBiasBox(tr("LayerNorm's bias (RMSNorm has none). Falcon keeps it with its linear "
                                "biases off. config.json: follows model_type (falcon, gpt_neox, gpt2)."));
    m_qLoraRank = makeSpin(ranges::accounting::latentRank, tr("none"),
                           tr("Multi-head latent attention: queries through a rank-r bottleneck "
                              "(DeepSeek-V3: 1536); none: projected directly. config.json: q_lora_rank."));
    m_kvLoraRank = makeSpin(ranges::accounting::latentRank, tr("none (no MLA)"),
                            tr("Multi-head latent attention (MLA): keys and values come from a latent of "
                               "this rank, and the KV cache keeps only it and one RoPE key (DeepSeek-V3: "
                               "512). config.json: kv_lora_rank."));
    m_qkNope = makeSpin(ranges::accounting::latentRank, tr("none"),
                        tr("MLA: query and key width per head without rotary positions (DeepSeek-V3: 128). "
                           "config.json: qk_nope_head_dim."));
    m_qkRope = makeSpin(ranges::accounting::latentRank, tr("none"),
                        tr("MLA: width of the rotary part of each query, and of the one RoPE key shared by "
                           "the heads and cached beside the latent (DeepSeek-V3: 64). config.json: "
                           "qk_rope_head_dim."));
    m_vHead = makeSpin(ranges::accounting::latentRank, tr("none"),
                       tr("MLA: value width per head (DeepSeek-V3: 128). config.json: v_head_dim."));
    m_expertFfn = makeSpin(ranges::accounting::expertFfnDim, tr("= FFN width"),
                           tr("Width of each routed expert's MLP, when it differs from the FFN width "
                              "(DeepSeek-V3: 2048). config.json: moe_intermediate_size."));
    m_sharedFfn = makeSpin(ranges::accounting::sharedFfnDim, tr("none"),
                           tr("Width of the always-on shared expert(s) together (DeepSeek-V3: 1 × 2048); "
                              "every token goes through it. config.json: n_shared_experts × "
                              "moe_intermediate_size, or shared_expert_intermediate_size (Qwen-MoE)."));
    m_sharedGate = new QCheckBox(tr("Shared-expert &gate"), b);
    m_sharedGate->setToolTip(tr("Qwen2-MoE's d×1 sigmoid gate on the shared expert. config.json: comes with "
                                "shared_expert_intermediate_size in qwen2_moe."));
    m_denseLayers = makeSpin(ranges::accounting::denseLayers, tr("none"),
                             tr("The first k layers keep a dense MLP of the FFN width; the others route to "
                                "experts (DeepSeek-V3: 3). config.json: first_k_dense_replace."));
    m_routerBias = new QCheckBox(tr("R&outer bias"), b);
    m_routerBias->setToolTip(tr("E router biases per MoE layer (DeepSeek-V3's e_score_correction_bias). "
                                "config.json: follows model_type (deepseek_v3)."));

    m_attentionSinks = new QCheckBox(tr("&Attention sinks"), b);
    m_attentionSinks->setToolTip(
        tr("One learned sink logit per head per layer joins each softmax (gpt-oss): "
           "a·L parameters, nothing cached. config.json: follows model_type (gpt_oss)."));

    m_form->addRow(heading(tr("Attention"), b));
    m_form->addRow(tr("Head &width:"), m_headDim);
    m_form->addRow(tr("QK-nor&m:"), m_qkNorm);
    m_form->addRow(tr("Sliding &window:"), m_slidingWindow);
    m_form->addRow(tr("&Global every:"), m_globalEvery);
    m_form->addRow(QString(), m_pattern);
    m_form->addRow(QString(), m_attentionSinks);
    m_form->addRow(heading(tr("Norms and biases"), b));
    m_form->addRow(tr("Norm &placement:"), m_normPlacement);
    m_form->addRow(tr("&q, k, v bias:"), m_qkvBias);
    m_form->addRow(tr("O&utput bias:"), m_outBias);
    m_form->addRow(tr("MLP &bias:"), m_mlpBias);
    m_form->addRow(tr("Norm b&ias:"), m_normBias);
    m_form->addRow(heading(tr("Latent attention (MLA)"), b));
    m_form->addRow(tr("&KV rank:"), m_kvLoraRank);
    m_form->addRow(tr("&Query rank:"), m_qLoraRank);
    m_form->addRow(tr("QK &nope width:"), m_qkNope);
    m_form->addRow(tr("QK &rope width:"), m_qkRope);
    m_form->addRow(tr("&Value width:"), m_vHead);
    m_form->addRow(heading(tr("Experts"), b));
    m_form->addRow(tr("E&xpert width:"), m_expertFfn);
    m_form->addRow(tr("&Shared width:"), m_sharedFfn);
    m_form->addRow(QString(), m_sharedGate);
    m_form->addRow(tr("&Dense layers:"), m_denseLayers);
    m_form->addRow(QString(), m_routerBias);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_toggle, 0, Qt::AlignLeft);
    layout->addWidget(m_body);

    connect(m_toggle, &QToolButton::toggled, this, &AdvancedArchitectureControls::setExpanded);
    for (QComboBox* box : {m_qkNorm, m_normPlacement, m_qkvBias, m_outBias, m_mlpBias, m_normBias})
        connect(box, &QComboBox::currentIndexChanged, this, &AdvancedArchitectureControls::onEdited);
    for (QCheckBox* check : {m_pattern, m_sharedGate, m_routerBias, m_attentionSinks})
        connect(check, &QCheckBox::toggled, this, &AdvancedArchitectureControls::onEdited);
    setModel(ModelSpec{});
    setExpanded(false);
}

QSpinBox* AdvancedArchitectureControls::makeSpin(ControlRange range, const QString& none,
                                                 const QString& tip) {
    auto* box = new QSpinBox(m_body);
    setRangeOf(box, range);
    box->setSpecialValueText(none); // shown at 0, the knob's "off"
    box->setToolTip(tip);
    box->setKeyboardTracking(false); // one change per committed value, not per keystroke
    connect(box, &QSpinBox::valueChanged, this, &AdvancedArchitectureControls::onEdited);
    return box;
}

QComboBox* AdvancedArchitectureControls::makeBiasBox(const QString& tip) {
    auto* box = new QComboBox(m_body);
    box->addItem(tr("= Biases"), kFollowsBias);
    box->addItem(name(onOffName(true)), 1);
    box->addItem(name(onOffName(false)), 0);
    box->setToolTip(tip + tr(" \"= Biases\" follows the Biases switch above."));
    return box;
}

void AdvancedArchitectureControls::writeTo(ModelSpec& m) const {
    m.headDim = m_headDim->value();
    m.qkNorm = currentEnum<QkNorm>(m_qkNorm);
    m.slidingWindow = m_slidingWindow->value();
    m.globalEvery = m_globalEvery->value();
    m.windowedLayers = m_pattern->isChecked() ? m_windowedLayers : std::vector<bool>{};
    m.normPlacement = currentEnum<NormPlacement>(m_normPlacement);
    m.qkvBias = biasOf(m_qkvBias);
    m.outBias = biasOf(m_outBias);
    m.mlpBias = biasOf(m_mlpBias);
    m.normBias = biasOf(m_normBias);
    m.qLoraRank = m_qLoraRank->value();
    m.kvLoraRank = m_kvLoraRank->value();
    m.qkNopeHeadDim = m_qkNope->value();
    m.qkRopeHeadDim = m_qkRope->value();
    m.vHeadDim = m_vHead->value();
    m.expertFfnDim = m_expertFfn->value();
    m.sharedFfnDim = m_sharedFfn->value();
    m.sharedExpertGate = m_sharedGate->isChecked();
    m.denseLayers = m_denseLayers->value();
    m.routerBias = m_routerBias->isChecked();
    m.attentionSinks = m_attentionSinks->isChecked();
}

void AdvancedArchitectureControls::setModel(const ModelSpec& m) {
    m_updating = true;
    m_headDim->setValue(static_cast<int>(m.headDim));
    selectEnum(m_qkNorm, m.qkNorm);
    m_slidingWindow->setValue(static_cast<int>(m.slidingWindow));
    m_globalEvery->setValue(static_cast<int>(m.globalEvery));
    m_windowedLayers = m.windowedLayers;
    m_pattern->setChecked(!m.windowedLayers.empty());
    const auto windowed = std::count(m.windowedLayers.begin(), m.windowedLayers.end(), true);
    m_pattern->setText(tr("Per-layer pattern: %1 of %2 windowed").arg(windowed).arg(m.windowedLayers.size()));
    m_form->setRowVisible(m_pattern, !m.windowedLayers.empty());
    selectEnum(m_normPlacement, m.normPlacement);
    showBias(m_qkvBias, m.qkvBias);
    showBias(m_outBias, m.outBias);
    showBias(m_mlpBias, m.mlpBias);
    showBias(m_normBias, m.normBias);
    m_qLoraRank->setValue(static_cast<int>(m.qLoraRank));
    m_kvLoraRank->setValue(static_cast<int>(m.kvLoraRank));
    m_qkNope->setValue(static_cast<int>(m.qkNopeHeadDim));
    m_qkRope->setValue(static_cast<int>(m.qkRopeHeadDim));
    m_vHead->setValue(static_cast<int>(m.vHeadDim));
    m_expertFfn->setValue(static_cast<int>(m.expertFfnDim));
    m_sharedFfn->setValue(static_cast<int>(m.sharedFfnDim));
    m_sharedGate->setChecked(m.sharedExpertGate);
    m_denseLayers->setValue(static_cast<int>(m.denseLayers));
    m_routerBias->setChecked(m.routerBias);
    m_attentionSinks->setChecked(m.attentionSinks);
    updateApplicability();
    m_updating = false;
}

void AdvancedArchitectureControls::setMixtureOfExperts(bool moe) {
    m_moe = moe;
    updateApplicability();
}

QWidget* AdvancedArchitectureControls::controlFor(const std::string& field) const {
    const std::pair<const char*, QWidget*> controls[] = {
        {"head-dim", m_headDim},         {"sliding-window", m_slidingWindow},
        {"global-every", m_globalEvery}, {"windowed-layers", m_pattern},
        {"q-lora-rank", m_qLoraRank},    {"kv-lora-rank", m_kvLoraRank},
        {"qk-nope-head-dim", m_qkNope},  {"qk-rope-head-dim", m_qkRope},
        {"v-head-dim", m_vHead},         {"expert-ffn-dim", m_expertFfn},
        {"shared-ffn-dim", m_sharedFfn}, {"dense-layers", m_denseLayers}};
    for (const auto& [fieldName, control] : controls)
        if (field == fieldName)
            return control;
    return nullptr;
}

int AdvancedArchitectureControls::knobsSet() const {
    ModelSpec m;
    writeTo(m);
    const ModelSpec gpt2;
    const bool set[] = {m.headDim != gpt2.headDim,
                        m.qkNorm != gpt2.qkNorm,
                        m.slidingWindow != gpt2.slidingWindow,
                        m.globalEvery != gpt2.globalEvery,
                        m.windowedLayers != gpt2.windowedLayers,
                        m.normPlacement != gpt2.normPlacement,
                        m.qkvBias != gpt2.qkvBias,
                        m.outBias != gpt2.outBias,
                        m.mlpBias != gpt2.mlpBias,
                        m.normBias != gpt2.normBias,
                        m.qLoraRank != gpt2.qLoraRank,
                        m.kvLoraRank != gpt2.kvLoraRank,
                        m.qkNopeHeadDim != gpt2.qkNopeHeadDim,
                        m.qkRopeHeadDim != gpt2.qkRopeHeadDim,
                        m.vHeadDim != gpt2.vHeadDim,
                        m.expertFfnDim != gpt2.expertFfnDim,
                        m.sharedFfnDim != gpt2.sharedFfnDim,
                        m.sharedExpertGate != gpt2.sharedExpertGate,
                        m.denseLayers != gpt2.denseLayers,
                        m.routerBias != gpt2.routerBias,
                        m.attentionSinks != gpt2.attentionSinks};
    return static_cast<int>(std::count(std::begin(set), std::end(set), true));
}

bool AdvancedArchitectureControls::isExpanded() const {
    return m_toggle->isChecked();
}

void AdvancedArchitectureControls::setExpanded(bool expanded) {
    if (m_toggle->isChecked() != expanded)
        m_toggle->setChecked(expanded); // re-enters through toggled
    m_toggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_body->setVisible(expanded);
}

void AdvancedArchitectureControls::onEdited() {
    if (m_updating)
        return;
    updateApplicability();
    emit changed();
}

void AdvancedArchitectureControls::updateToggleText() {
    const int set = knobsSet();
    m_toggle->setText(set == 0 ? tr("Advanced architecture") : tr("Advanced architecture (%n set)", "", set));
}

// A control stays enabled while it holds a value that is not its default, so a user can always undo a
// combination the engine refuses; the others grey out until the knob they refine is on.
void AdvancedArchitectureControls::updateApplicability() {
    const bool windowed = m_slidingWindow->value() > 0;
    m_globalEvery->setEnabled((windowed && !m_pattern->isChecked()) || m_globalEvery->value() != 0);
    const bool latent = m_kvLoraRank->value() > 0;
    for (QSpinBox* box : {m_qLoraRank, m_qkNope, m_qkRope, m_vHead})
        box->setEnabled(latent || box->value() != 0);
    for (QSpinBox* box : {m_expertFfn, m_sharedFfn, m_denseLayers})
        box->setEnabled(m_moe || box->value() != 0);
    m_sharedGate->setEnabled(m_moe || m_sharedGate->isChecked());
    m_routerBias->setEnabled(m_moe || m_routerBias->isChecked());
    updateToggleText();
}
