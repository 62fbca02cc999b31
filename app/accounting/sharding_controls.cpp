// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/sharding_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>

using namespace napkin;

namespace {

// Enabled while it applies or holds a value other than its default (so a refused combination can be
// undone); the tooltip says why when it does not apply.
void applies(QWidget* control, bool applies, bool atDefault, const QString& why) {
    control->setEnabled(applies || !atDefault);
    control->setToolTip(applies ? control->property("applicableTip").toString() : why);
}

void tip(QWidget* control, const QString& text) {
    control->setToolTip(text);
    control->setProperty("applicableTip", text);
}

} // namespace

ShardingControls::ShardingControls(QWidget* parent)
    : QGroupBox(tr("ZeRO / FSDP layout"), parent) {
    auto* form = new QFormLayout(this);
    m_twoCopies = new QCheckBox(tr("T&wo gradient copies (DeepSpeed)"), this);
    tip(m_twoCopies, tr("ZeRO-1/2 as DeepSpeed keeps them (stage_1_and_2.py): the 16-bit gradients whole "
                        "plus an fp32 gradient partition, 4Ψ + 16Ψ/N with AdamW."));
    m_gathered = new QComboBox(this);
    m_gathered->addItem(tr("none — the shards alone"), static_cast<int>(GatheredLayers::none));
    m_gathered->addItem(tr("FSDP — root + layer + prefetch"), static_cast<int>(GatheredLayers::fsdp));
    m_gathered->addItem(tr("DeepSpeed — 4 B × largest layer"), static_cast<int>(GatheredLayers::deepspeed));
    tip(m_gathered, tr("ZeRO-3's working set above the shards: FSDP2 keeps the root (embeddings, head) "
                       "gathered and gathers each layer and the next; DeepSpeed's estimator adds 4 B × the "
                       "largest layer's parameters."));
    m_prefetch = new QSpinBox(this);
    m_prefetch->setRange(0, 8);
    m_prefetch->setValue(1);
    m_prefetch->setKeyboardTracking(false);
    tip(m_prefetch, tr("Layers FSDP gathers ahead of the one it computes."));
    m_fp32Reduce = new QCheckBox(tr("fp32 &reduce-scatter (FSDP2)"), this);
    tip(m_fp32Reduce, tr("FSDP2's MixedPrecisionPolicy(reduce_dtype=torch.float32): each layer's gradients "
                         "are copied to fp32 for the reduce-scatter."));
    m_shardGroup = new QSpinBox(this);
    m_shardGroup->setRange(0, 1 << 20);
    m_shardGroup->setKeyboardTracking(false);
    m_shardGroup->setSpecialValueText(tr("all"));
    tip(m_shardGroup, tr("HSDP: the GPUs of one shard group (a node); ZeRO shards within it and the groups "
                         "replicate, all-reducing their gradient shards. All: one group."));
    form->addRow(QString(), m_twoCopies);
    form->addRow(tr("&Gathered layers:"), m_gathered);
    form->addRow(tr("&Prefetch layers:"), m_prefetch);
    form->addRow(QString(), m_fp32Reduce);
    form->addRow(tr("&Shard group (HSDP):"), m_shardGroup);
    for (QCheckBox* c : {m_twoCopies, m_fp32Reduce})
        connect(c, &QCheckBox::toggled, this, &ShardingControls::onEdited);
    for (QSpinBox* s : {m_prefetch, m_shardGroup})
        connect(s, &QSpinBox::valueChanged, this, &ShardingControls::onEdited);
    connect(m_gathered, &QComboBox::currentIndexChanged, this, &ShardingControls::onEdited);
    updateApplicability();
}

ShardingOptions ShardingControls::options() const {
    ShardingOptions o;
    o.twoGradientCopies = m_twoCopies->isChecked();
    o.gathered = static_cast<GatheredLayers>(m_gathered->currentData().toInt());
    o.prefetchLayers = m_prefetch->value();
    o.fp32Reduce = m_fp32Reduce->isChecked();
    o.shardGroup = m_shardGroup->value();
    return o;
}

void ShardingControls::setOptions(const ShardingOptions& o) {
    m_updating = true;
    m_twoCopies->setChecked(o.twoGradientCopies);
    m_gathered->setCurrentIndex(std::max(0, m_gathered->findData(static_cast<int>(o.gathered))));
    m_prefetch->setValue(static_cast<int>(o.prefetchLayers));
    m_fp32Reduce->setChecked(o.fp32Reduce);
    m_shardGroup->setValue(static_cast<int>(o.shardGroup));
    updateApplicability();
    m_updating = false;
}

void ShardingControls::setZeroStage(int zeroStage) {
    m_zeroStage = zeroStage;
    updateApplicability();
}

QWidget* ShardingControls::controlFor(const std::string& field) const {
    if (field == "two-gradient-copies")
        return m_twoCopies;
    if (field == "gathered-layers")
        return m_gathered;
    if (field == "prefetch-layers")
        return m_prefetch;
    if (field == "fp32-reduce")
        return m_fp32Reduce;
    if (field == "shard-group")
        return m_shardGroup;
    return nullptr;
}

void ShardingControls::onEdited() {
    if (m_updating)
        return;
    updateApplicability();
    emit changed();
}

void ShardingControls::updateApplicability() {
    const ShardingOptions o = options();
    const bool fsdp = o.gathered == GatheredLayers::fsdp;
    applies(m_twoCopies, m_zeroStage == 1 || m_zeroStage == 2, !o.twoGradientCopies,
            tr("DeepSpeed keeps the two gradient copies under ZeRO-1 and 2: choose one of those stages."));
    applies(m_gathered, m_zeroStage == 3, o.gathered == GatheredLayers::none,
            tr("Only ZeRO-3 gathers layers while it computes: choose stage 3."));
    applies(m_prefetch, m_zeroStage == 3 && fsdp, o.prefetchLayers == 1,
            tr("The FSDP working set's prefetch: choose ZeRO-3 and FSDP gathered layers."));
    applies(m_fp32Reduce, m_zeroStage == 3 && fsdp, !o.fp32Reduce,
            tr("FSDP2's reduce dtype: choose ZeRO-3 and FSDP gathered layers."));
    applies(m_shardGroup, m_zeroStage > 0, o.shardGroup == 0,
            tr("HSDP shards ZeRO's states within a group: choose a ZeRO stage above 0."));
}
