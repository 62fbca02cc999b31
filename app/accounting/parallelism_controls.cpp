#include "app/accounting/parallelism_controls.h"

#include "engine/numerics/quantity_format.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/controls/spin_box_range.h"
#include "widgets/text/engine_text.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>

using namespace napkin;

namespace {

QSpinBox* sizeBox(QWidget* parent, ControlRange range, const QString& tip) {
    auto* box = new QSpinBox(parent);
    setRangeOf(box, range);
    box->setKeyboardTracking(false);
    box->setToolTip(tip);
    box->setProperty("applicableTip", tip); // the tooltip while the control applies
    return box;
}

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
    m_tp =
        sizeBox(this, ranges::accounting::tensorParallel,
                tr("Tensor parallel t: each layer's heads and MLP width split over t GPUs (keep t within a "
                   "node's NVLink). Must divide the heads and KV heads."));
    m_pp = sizeBox(this, ranges::accounting::pipelineParallel,
                   tr("Pipeline stages p: each stage holds L/p layers; 1F1B keeps min(p, m) micro-batches in "
                      "flight on the first. Must divide the layers."));
    m_sp = new QCheckBox(tr("&Sequence parallel"), this);
    m_sp->setProperty("applicableTip",
                      tr("Sequence parallelism also splits the norms' and dropouts' activations "
                         "over the t GPUs (Korthikanti et al. 2022)."));
    m_cp = sizeBox(this, ranges::accounting::contextParallel,
                   tr("Context parallel: the sequence split over GPUs, K and V passed round a ring."));
    m_ep = sizeBox(this, ranges::accounting::expertParallel,
                   tr("Expert parallel: each layer's experts split over the data-parallel GPUs."));
    m_microbatches = sizeBox(this, ranges::accounting::microbatches,
                             tr("Micro-batches per step: gradient accumulation, and what fills the pipeline. "
                                "The global batch is batch × micro-batches × dp."));
    m_virtualStages = sizeBox(this, ControlRange{1, 64},
                              tr("Virtual stages v: Megatron-LM's interleaved 1F1B, v model chunks per stage. "
                                 "The bubble shrinks to (p − 1)/(v·m + p − 1); the first stage holds "
                                 "p + (p − 1)/v micro-batches. p·v must divide the layers, p the micro-batches."));
    m_dp = new QLabel(this);
    m_dp->setObjectName(QStringLiteral("dataParallel"));
    m_dp->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("&Tensor (tp):"), m_tp);
    form->addRow(tr("&Pipeline (pp):"), m_pp);
    form->addRow(QString(), m_sp);
    form->addRow(tr("&Context (cp):"), m_cp);
    form->addRow(tr("E&xpert (ep):"), m_ep);
    form->addRow(tr("&Micro-batches:"), m_microbatches);
    form->addRow(tr("&Virtual stages (v):"), m_virtualStages);
    form->addRow(tr("Data parallel:"), m_dp);
    for (QSpinBox* box : {m_tp, m_pp, m_cp, m_ep, m_microbatches, m_virtualStages})
        connect(box, &QSpinBox::valueChanged, this, &ParallelismControls::onEdited);
    connect(m_sp, &QCheckBox::toggled, this, &ParallelismControls::onEdited);
    setParallel(ParallelLayout{});
}

ParallelLayout ParallelismControls::parallel() const {
    ParallelLayout l;
    l.tp = m_tp->value();
    l.pp = m_pp->value();
    l.sp = m_sp->isChecked();
    l.cp = m_cp->value();
    l.ep = m_ep->value();
    l.microbatches = m_microbatches->value();
    l.virtualStages = m_virtualStages->value();
    return l;
}

void ParallelismControls::setParallel(const ParallelLayout& l) {
    m_updating = true;
    m_tp->setValue(static_cast<int>(l.tp));
    m_pp->setValue(static_cast<int>(l.pp));
    m_sp->setChecked(l.sp);
    m_cp->setValue(static_cast<int>(l.cp));
    m_ep->setValue(static_cast<int>(l.ep));
    m_microbatches->setValue(static_cast<int>(l.microbatches));
    m_virtualStages->setValue(static_cast<int>(l.virtualStages));
    updateApplicability();
    m_updating = false;
}

void ParallelismControls::setContext(const ModelSpec& model, double gpus) {
    m_model = model;
    m_gpus = gpus;
    updateApplicability();
}

QWidget* ParallelismControls::controlFor(const std::string& field) const {
    if (field == "tp")
        return m_tp;
    if (field == "pp")
        return m_pp;
    if (field == "sp")
        return m_sp;
    if (field == "cp")
        return m_cp;
    if (field == "ep")
        return m_ep;
    if (field == "microbatches")
        return m_microbatches;
    if (field == "virtual-stages")
        return m_virtualStages;
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
    applies(m_tp, transformer, l.tp == 1, onlyTransformers);
    applies(m_pp, transformer, l.pp == 1, onlyTransformers);
    applies(m_sp, transformer && l.tp > 1, !l.sp,
            tr("Sequence parallelism splits over the tensor-parallel GPUs: set tp above 1 first."));
    applies(m_cp, transformer && m_model.attentionImpl == AttentionImpl::flash, l.cp == 1,
            tr("Context parallelism runs ring attention over flash-attention blocks: choose the flash kernel "
               "in Architecture first."));
    applies(m_virtualStages, transformer && l.pp > 1, l.virtualStages == 1,
            tr("Interleaving splits each pipeline stage into chunks: set pp above 1 first."));
    applies(m_ep, transformer && isMixtureOfExperts(m_model), l.ep == 1,
            tr("Expert parallelism splits the experts: set experts above 1 in Architecture first."));
    const double replica = l.tp * l.pp * l.cp, dp = m_gpus / replica;
    m_dp->setText(
        dp == std::floor(dp)
            ? tr("dp = %1 / (%2 × %3 × %4) = %5")
                  .arg(numberText(m_gpus), numberText(l.tp), numberText(l.pp), numberText(l.cp),
                       numberText(dp))
            : tr("not whole: %1 GPUs / (tp·pp·cp = %2)").arg(numberText(m_gpus), numberText(replica)));
}
