// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/fine_tuning_controls.h"

#include "engine/scenario/control_ranges.h"
#include "widgets/controls/spin_box_range.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QSpinBox>

using namespace napkin;

namespace {

template <typename Enum> void selectData(QComboBox* box, Enum value) {
    box->setCurrentIndex(std::max(0, box->findData(static_cast<int>(value))));
}

} // namespace

FineTuningControls::FineTuningControls(QWidget* parent)
    : QGroupBox(tr("Fine-tuning"), parent) {
    auto* form = new QFormLayout(this);
    m_method = new QComboBox(this);
    m_method->setObjectName(QStringLiteral("fineTuneMethod"));
    m_method->addItem(tr("full (every parameter trains)"), static_cast<int>(FineTuneMethod::full));
    m_method->addItem(tr("LoRA (frozen base + adapters)"), static_cast<int>(FineTuneMethod::lora));
    m_method->addItem(tr("QLoRA (NF4 base + adapters)"), static_cast<int>(FineTuneMethod::qlora));
    m_method->setToolTip(tr("LoRA freezes the base weights and trains rank-r adapters B·A beside the chosen "
                            "matrices: gradients and optimizer state only for the adapters, no weight "
                            "gradient for a frozen matrix. QLoRA stores the layers' matrices in NF4 "
                            "(0.516 B per weight with double quantisation)."));
    m_rank = new QSpinBox(this);
    setRangeOf(m_rank, ranges::accounting::loraRank);
    m_rank->setKeyboardTracking(false);
    m_rank->setToolTip(tr("Rank r: each adapted in × out matrix gains r·(in + out) trainable parameters."));
    m_alpha = new QDoubleSpinBox(this);
    m_alpha->setRange(ranges::accounting::loraAlpha.minimum, ranges::accounting::loraAlpha.maximum);
    m_alpha->setDecimals(2);
    m_alpha->setKeyboardTracking(false);
    m_alpha->setToolTip(
        tr("Alpha: the adapters' output is scaled by alpha/r; no memory or FLOPs of its own."));
    m_targetsRow = new QWidget(this);
    auto* grid = new QGridLayout(m_targetsRow);
    grid->setContentsMargins(0, 0, 0, 0);
    int column = 0;
    for (LoraTarget t : {LoraTarget::q, LoraTarget::k, LoraTarget::v, LoraTarget::o, LoraTarget::gate,
                         LoraTarget::up, LoraTarget::down}) {
        auto* check = new QCheckBox(QString::fromUtf8(loraTargetName(t).data()), m_targetsRow);
        check->setToolTip(tr("Adapt the %1 projection of every layer (every expert's, in a mixture of "
                             "experts)")
                              .arg(QString::fromUtf8(loraTargetName(t).data())));
        grid->addWidget(check, column / 4, column % 4);
        ++column;
        m_targets.emplace_back(t, check);
        connect(check, &QCheckBox::toggled, this, &FineTuningControls::onEdited);
    }
    m_offload = new QComboBox(this);
    m_offload->setObjectName(QStringLiteral("offload"));
    m_offload->addItem(tr("none"), static_cast<int>(Offload::none));
    m_offload->addItem(tr("optimizer states to host"), static_cast<int>(Offload::optimizer));
    m_offload->addItem(tr("optimizer states and weights to host"),
                       static_cast<int>(Offload::optimizerAndParams));
    m_offload->setToolTip(
        tr("ZeRO-Offload: master weights and optimizer state live in host memory and the CPU "
           "updates them; gradients go out and weights come back over the host link each "
           "step, which can outlast the compute."));
    form->addRow(tr("&Method:"), m_method);
    form->addRow(tr("LoRA &rank:"), m_rank);
    form->addRow(tr("LoRA a&lpha:"), m_alpha);
    form->addRow(tr("Targets:"), m_targetsRow);
    form->addRow(tr("&Offload:"), m_offload);
    connect(m_method, &QComboBox::currentIndexChanged, this, &FineTuningControls::onEdited);
    connect(m_offload, &QComboBox::currentIndexChanged, this, &FineTuningControls::onEdited);
    connect(m_rank, &QSpinBox::valueChanged, this, &FineTuningControls::onEdited);
    connect(m_alpha, &QDoubleSpinBox::valueChanged, this, &FineTuningControls::onEdited);
    setFineTuning(FineTuning{});
}

FineTuning FineTuningControls::fineTuning() const {
    FineTuning ft;
    ft.method = static_cast<FineTuneMethod>(m_method->currentData().toInt());
    ft.rank = m_rank->value();
    ft.alpha = m_alpha->value();
    ft.targets.clear();
    for (const auto& [target, check] : m_targets)
        if (check->isChecked())
            ft.targets.push_back(target);
    ft.offload = static_cast<Offload>(m_offload->currentData().toInt());
    return ft;
}

void FineTuningControls::setFineTuning(const FineTuning& ft) {
    m_updating = true;
    selectData(m_method, ft.method);
    m_rank->setValue(static_cast<int>(ft.rank));
    m_alpha->setValue(ft.alpha);
    for (const auto& [target, check] : m_targets)
        check->setChecked(targets(ft, target));
    selectData(m_offload, ft.offload);
    updateApplicability();
    m_updating = false;
}

QWidget* FineTuningControls::controlFor(const std::string& field) const {
    if (field == "finetune")
        return m_method;
    if (field == "lora-rank")
        return m_rank;
    if (field == "lora-alpha")
        return m_alpha;
    if (field == "lora-targets")
        return m_targetsRow;
    if (field == "offload")
        return m_offload;
    return nullptr;
}

QCheckBox* FineTuningControls::targetCheck(LoraTarget target) const {
    for (const auto& [t, check] : m_targets)
        if (t == target)
            return check;
    return nullptr;
}

void FineTuningControls::onEdited() {
    updateApplicability();
    if (!m_updating)
        emit changed();
}

// The LoRA setting applies to LoRA and QLoRA only; under full training it is greyed.
void FineTuningControls::updateApplicability() {
    const bool adapters = hasAdapters(fineTuning());
    m_rank->setEnabled(adapters);
    m_alpha->setEnabled(adapters);
    m_targetsRow->setEnabled(adapters);
    m_targetsRow->setToolTip(adapters
                                 ? tr("The matrices that get adapters (PEFT's target_modules)")
                                 : tr("Applies to LoRA and QLoRA; full training trains every parameter."));
}
