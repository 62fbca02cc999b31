// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/parallelism_controls.h"

#include "app/model/number_knob_rows.h"
#include "engine/accounting/parallel_layout_knobs.h"
#include "widgets/text/engine_text.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>
#include <optional>

using namespace napkin;

namespace {

// A control stays enabled while it holds a value that is not its default, so that a user can always
// undo a combination the engine refuses; otherwise it is disabled with `why` as its tooltip.
void applies(QWidget* control, bool applies, bool atDefault, const QString& why) {
    control->setEnabled(applies || !atDefault);
    control->setToolTip(applies ? control->property("applicableTip").toString() : why);
}

} // namespace

ParallelismControls::ParallelismControls(QWidget* parent)
    : QGroupBox(tr("Parallelism"), parent) {
    auto* form = new QFormLayout(this);
    m_sp = new QCheckBox(tr("&Sequence parallel"), this);
    m_sp->setProperty("applicableTip",
                      tr("Sequence parallelism also splits the norms' and dropouts' activations "
                         "over the t GPUs (Korthikanti et al. 2022)."));
    // The sizes are their table's (parallel_layout_knobs.h): range, label, tooltip and flag.
    for (const NumberKnob<ParallelLayout>& knob : parallelLayoutKnobs()) {
        QSpinBox* box = numberKnobSpinBox(knob, this);
        box->setKeyboardTracking(false);
        box->setProperty("applicableTip", box->toolTip()); // the tooltip while the control applies
        connect(box, &QSpinBox::valueChanged, this, &ParallelismControls::onEdited);
        QCheckBox* check = nullptr;
        if (knob.isOptional()) { // set or not: the box greyed while unset (the even split)
            auto* row = new QWidget(this);
            auto* rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(0, 0, 0, 0);
            check = new QCheckBox(QString::fromUtf8(knob.look.checkText.data(),
                                                    static_cast<qsizetype>(knob.look.checkText.size())),
                                  row);
            check->setToolTip(box->toolTip());
            check->setProperty("applicableTip", box->toolTip());
            rowLayout->addWidget(check);
            rowLayout->addWidget(box, 1);
            connect(check, &QCheckBox::toggled, this, &ParallelismControls::onEdited);
            form->addRow(numberKnobLabel(knob), row);
        } else {
            form->addRow(numberKnobLabel(knob), box);
        }
        m_boxes.push_back(box);
        m_checks.push_back(check);
        if (knob.key == "pp")
            form->addRow(QString(), m_sp);
    }
    m_dp = new QLabel(this);
    m_dp->setObjectName(QStringLiteral("dataParallel"));
    m_dp->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Data parallel:"), m_dp);
    connect(m_sp, &QCheckBox::toggled, this, &ParallelismControls::onEdited);
    setParallel(ParallelLayout{});
}

QCheckBox* ParallelismControls::check(std::string_view key) const {
    const auto knobs = parallelLayoutKnobs();
    for (std::size_t i = 0; i < knobs.size(); ++i)
        if (knobs[i].key == key)
            return m_checks[i];
    return nullptr;
}

QSpinBox* ParallelismControls::box(std::string_view key) const {
    const auto knobs = parallelLayoutKnobs();
    for (std::size_t i = 0; i < knobs.size(); ++i)
        if (knobs[i].key == key)
            return m_boxes[i];
    return nullptr;
}

ParallelLayout ParallelismControls::parallel() const {
    ParallelLayout l;
    const auto knobs = parallelLayoutKnobs();
    for (std::size_t i = 0; i < knobs.size(); ++i)
        knobs[i].set(l, m_checks[i] && !m_checks[i]->isChecked() ? std::nullopt
                                                                  : std::optional<double>(m_boxes[i]->value()));
    l.sp = m_sp->isChecked();
    return l;
}

void ParallelismControls::setParallel(const ParallelLayout& l) {
    m_updating = true;
    const auto knobs = parallelLayoutKnobs();
    for (std::size_t i = 0; i < knobs.size(); ++i) {
        const std::optional<double> value = knobs[i].get(l);
        if (m_checks[i])
            m_checks[i]->setChecked(value.has_value());
        m_boxes[i]->setValue(static_cast<int>(value.value_or(1)));
    }
    m_sp->setChecked(l.sp);
    updateApplicability();
    m_updating = false;
}

void ParallelismControls::setContext(const ModelSpec& model, double gpus) {
    m_model = model;
    m_gpus = gpus;
    updateApplicability();
}

QWidget* ParallelismControls::controlFor(const std::string& field) const {
    if (field == "sp")
        return m_sp;
    const auto knobs = parallelLayoutKnobs();
    for (std::size_t i = 0; i < knobs.size(); ++i)
        if (knobs[i].field() == field)
            return m_boxes[i];
    return nullptr;
}

QString ParallelismControls::dataParallelText() const {
    return m_dp->text();
}

void ParallelismControls::onEdited() {
    if (m_updating)
        return;
    updateApplicability();
    emit changed();
}

void ParallelismControls::updateApplicability() {
    const ParallelLayout l = parallel();
    const bool transformer = m_model.kind == ModelKind::transformer;
    const QString onlyTransformers =
        tr("Splits a transformer's layers, heads or sequence; this model kind is accounted with data "
           "parallelism only.");
    applies(tpBox(), transformer, l.tp == 1, onlyTransformers);
    applies(ppBox(), transformer, l.pp == 1, onlyTransformers);
    applies(m_sp, transformer && l.tp > 1, !l.sp,
            tr("Sequence parallelism splits over the tensor-parallel GPUs: set tp above 1 first."));
    applies(cpBox(), transformer && m_model.attentionImpl == AttentionImpl::flash, l.cp == 1,
            tr("Context parallelism runs ring attention over flash-attention blocks: choose the flash kernel "
               "in Architecture first."));
    applies(virtualStagesBox(), transformer && l.pp > 1, l.virtualStages == 1,
            tr("Interleaving splits each pipeline stage into chunks: set pp above 1 first."));
    applies(epBox(), transformer && isMixtureOfExperts(m_model), l.ep == 1,
            tr("Expert parallelism splits the experts: set experts above 1 in Architecture first."));
    // Uneven stages: a layer count per end stage of the plain 1F1B schedule, the box live while set.
    const bool uneven = transformer && l.pp > 1 && l.virtualStages == 1;
    for (const char* key : {"first_stage_layers", "last_stage_layers"}) {
        QCheckBox* set = check(key);
        applies(set, uneven, !set->isChecked(),
                tr("Uneven stages give the first or last pipeline stage its own layer count: set pp above 1 "
                   "(and virtual stages to 1) first."));
        box(key)->setEnabled(set->isChecked() && set->isEnabled());
    }
    const double replica = l.tp * l.pp * l.cp, dp = m_gpus / replica;
    m_dp->setText(
        dp == std::floor(dp)
            ? tr("dp = %1 / (%2 × %3 × %4) = %5")
                  .arg(numberText(m_gpus), numberText(l.tp), numberText(l.pp), numberText(l.cp),
                       numberText(dp))
            : tr("not whole: %1 GPUs / (tp·pp·cp = %2)").arg(numberText(m_gpus), numberText(replica)));
}
