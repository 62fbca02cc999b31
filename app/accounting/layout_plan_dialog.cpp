// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/layout_plan_dialog.h"

#include "app/hardware/chosen_hardware_profile.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/jobs/task_runner.h"
#include "engine/numerics/quantity_format.h"
#include "engine/planning/layout_search.h"
#include "engine/steptime/step_time.h"
#include "engine/steptime/step_time_summary.h"
#include "widgets/controls/text_tone.h"
#include "widgets/text/engine_text.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <atomic>
#include <cmath>
#include <memory>

using namespace napkin;

namespace {

QString text(const std::string& s) {
    return toQString(s);
}

QString count(std::int64_t v) {
    return text(formatNumber(static_cast<double>(v)));
}

QString percent(double fraction) {
    return QStringLiteral("%1 %").arg(100 * fraction, 0, 'f', 1);
}

QString differences(const std::vector<LedgerDifference>& parts) {
    QStringList out;
    for (const LedgerDifference& d : parts)
        out << QStringLiteral("%1 %2%3")
                   .arg(text(d.part), d.seconds >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
                        text(formatDuration(std::abs(d.seconds))));
    return out.join(QStringLiteral(", "));
}

// "#7", or "#1067–#4922" where pruning left the rank a range.
QString rankText(const PlannedLayout& p) {
    return p.rankAtMost > p.rank ? QStringLiteral("#%1–#%2").arg(p.rank).arg(p.rankAtMost)
                                 : QStringLiteral("#%1").arg(p.rank);
}

QString yoursText(const LayoutPlan& plan) {
    const YourLayout& y = plan.yours;
    if (y.status != YourLayoutStatus::ranked)
        return LayoutPlanDialog::tr("Yours is not ranked (%1): %2")
            .arg(text(std::string(yourLayoutStatusName(y.status))), text(y.why));
    const PlannedLayout& p = *y.layout;
    QString line = LayoutPlanDialog::tr("Yours (%1): %2, %3 a step")
                       .arg(text(layoutChoiceText(p.choice, p.input.gpus)), rankText(p),
                            text(formatDuration(p.stepTime.seconds)));
    if (p.rank > 1 && !plan.top.empty())
        line += LayoutPlanDialog::tr(", %1 slower than #1, which changes %2; yours loses by %3")
                    .arg(percent(p.slowerThanFirst), text(p.changesFromFirst), differences(p.losesBy));
    return line;
}

QString noFitText(const LayoutPlan& plan) {
    const PlanRefusal& most = plan.noFit->mostCommon;
    QString line = LayoutPlanDialog::tr("No layout fits and is timed: %1 rules out the most, %2 of %3 (%4).")
                       .arg(text(most.reason), count(most.candidates), count(plan.counts.considered),
                            text(most.example));
    if (const std::optional<PlannedLayout>& near = plan.noFit->nearest)
        line += LayoutPlanDialog::tr(" Nearest: %1 needs %2 of %3 usable (%4 over).")
                    .arg(text(layoutChoiceText(near->choice, near->input.gpus)),
                         text(formatBytes(near->requiredBytes)), text(formatBytes(near->usableBytes)),
                         text(formatBytes(near->requiredBytes - near->usableBytes)));
    return line;
}

QTableWidgetItem* cell(const QString& s, bool number = false) {
    auto* item = new QTableWidgetItem(s);
    item->setToolTip(s); // a narrow column elides: the whole text on hover
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

LayoutPlanDialog::LayoutPlanDialog(const AccountingInput& base, QWidget* parent)
    : QDialog(parent)
    , m_base(base)
    , m_runner(new TaskRunner(this))
    , m_summary(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel search"), this))
    , m_table(new QTableWidget(0, 7, this))
    , m_detail(new QLabel(this))
    , m_apply(new QPushButton(tr("Apply to the page"), this)) {
    setWindowTitle(tr("The fastest layout that fits"));
    auto* layout = new QVBoxLayout(this);
    m_summary->setObjectName(QStringLiteral("planSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    auto* progressRow = new QHBoxLayout;
    m_progress->setRange(0, 1000);
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    layout->addLayout(progressRow);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setHorizontalHeaderLabels({tr("Rank"), tr("Layout"), tr("Step"), tr("Tokens/s"), tr("MFU"),
                                        tr("Needs (of usable)"), tr("Against #1")});
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);
    m_detail->setObjectName(QStringLiteral("planDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    setTextTone(m_detail, TextTone::note);
    layout->addWidget(m_detail);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_apply, QDialogButtonBox::ApplyRole);
    m_apply->setEnabled(false);
    layout->addWidget(buttons);
    resize(960, 520);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_apply, &QPushButton::clicked, this, [this] { applyRow(m_table->currentRow()); });
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) { showRow(row); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row) { applyRow(row); });
    connect(m_runner, &TaskRunner::progress, this, [this](const TaskProgress& p) {
        m_progress->setValue(static_cast<int>(std::lround(p.fraction * 1000)));
    });
    connect(m_runner, &TaskRunner::failed, this, [this](const QString& message) {
        m_summary->setText(tr("The search failed: %1").arg(message));
        m_progress->hide();
        m_cancel->hide();
        emit searchFinished();
    });
    start();
}

LayoutPlanDialog::~LayoutPlanDialog() = default;

bool LayoutPlanDialog::isSearching() const {
    return m_runner->isBusy();
}

void LayoutPlanDialog::start() {
    const GpuSpec* gpu = sessionGpuCatalog().find(m_base.gpu);
    std::string whyNot;
    // Ranked by the step the page shows: the app's profile where it was measured on this GPU, else the
    // GPU's published one.
    const HardwareProfile* chosen = gpu ? ChosenHardwareProfile::instance().profileFor(*gpu) : nullptr;
    const std::optional<HardwareProfile> profile =
        chosen ? std::optional<HardwareProfile>(*chosen) : gpu ? defaultProfile(*gpu, whyNot) : std::nullopt;
    if (!profile) {
        m_summary->setText(tr("No layout can be ranked: the step time is not predicted for %1: %2")
                               .arg(text(m_base.gpu), text(whyNot)));
        m_progress->hide();
        m_cancel->hide();
        return;
    }
    m_summary->setText(tr("Searching every layout of %1 × %2 (tp, pp and v, cp, ep, dp, micro-batches, "
                          "recompute, ZeRO, attention kernel)…")
                           .arg(text(formatNumber(m_base.gpus)), text(m_base.gpu)));
    // Cancel keeps what was ranked by then: the search stops at its next shape and returns its plan.
    auto stop = std::make_shared<std::atomic<bool>>(false);
    connect(m_cancel, &QPushButton::clicked, this, [this, stop] {
        stop->store(true);
        m_cancel->setEnabled(false);
    });
    m_runner->start([this, base = m_base, catalog = sessionGpuCatalog(), profile = *profile,
                     stop](const TaskContext& task) {
        PlanOptions options;
        options.top = kTop;
        options.keepGoing = [&task, &stop](double fraction) {
            task.progress(fraction, QStringLiteral("searching"));
            return !stop->load() && task.keepGoing();
        };
        const LayoutPlan plan = planLayouts(base, catalog, profile, options);
        return TaskRunner::Deliver([this, plan] { showPlan(plan); });
    });
}

void LayoutPlanDialog::showPlan(const LayoutPlan& plan) {
    m_plan = plan;
    m_progress->hide();
    m_cancel->hide();
    if (!plan.whyNone.empty()) {
        m_summary->setText(tr("No plan: %1").arg(text(plan.whyNone)));
        emit searchFinished();
        return;
    }
    const PlanCounts& c = plan.counts;
    QStringList lines;
    lines << tr("%1 × %2 (nodes of %3), %4 sequences = %5 tokens per step; step times from %6.")
                 .arg(text(formatNumber(m_base.gpus)), text(m_base.gpu), text(formatNumber(plan.gpusPerNode)),
                      text(formatNumber(plan.globalBatch)), text(formatNumber(plan.tokensPerStep)),
                      text(plan.basis));
    lines << tr("Searched %1 layouts: %2 invalid, %3 pruned by the compute bound, %4 over memory, %5 not "
                "timed, %6 timed.")
                 .arg(count(c.considered), count(c.invalid), count(c.pruned), count(c.refusedForMemory),
                      count(c.notTimed), count(c.timed));
    if (plan.cancelled)
        lines << tr("Cancelled: the ranking of the layouts searched so far.");
    if (plan.noFit)
        lines << noFitText(plan);
    lines << yoursText(plan);
    lines << text(std::string(stepTimeValidationNote(plan.basis))) + QLatin1Char('.');
    m_summary->setText(lines.join(QLatin1Char('\n')));

    m_table->setRowCount(static_cast<int>(plan.top.size()));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const PlannedLayout& p = plan.top[static_cast<std::size_t>(row)];
        const StepTime& t = p.stepTime;
        m_table->setItem(row, 0, cell(rankText(p), true));
        m_table->setItem(row, 1, cell(text(layoutChoiceText(p.choice, p.input.gpus))));
        m_table->setItem(row, 2, cell(text(formatDuration(t.seconds)), true));
        m_table->setItem(row, 3, cell(text(formatNumber(t.tokensPerSecond)), true));
        m_table->setItem(row, 4, cell(text(formatNumber(t.mfu)), true));
        m_table->setItem(row, 5, cell(tr("%1 of %2").arg(text(formatBytes(p.requiredBytes)),
                                                         text(formatBytes(p.usableBytes))),
                                      true));
        QString against = tr("fastest");
        if (row > 0 && p.losesBy.empty()) // the ledgers differ nowhere: the same step
            against = tr("ties (%1)").arg(text(p.changesFromFirst));
        else if (row > 0)
            against = tr("%1 slower (%2)").arg(percent(p.slowerThanFirst), text(p.changesFromFirst));
        m_table->setItem(row, 6, cell(against));
    }
    m_apply->setEnabled(!plan.top.empty());
    if (!plan.top.empty())
        m_table->setCurrentCell(0, 0);
    emit searchFinished();
}

void LayoutPlanDialog::showRow(int row) {
    if (!m_plan || row < 0 || row >= static_cast<int>(m_plan->top.size())) {
        m_detail->clear();
        return;
    }
    const PlannedLayout& p = m_plan->top[static_cast<std::size_t>(row)];
    QStringList rows;
    for (const StepTimeRow* r : largestStepRows(p.stepTime, 3))
        rows << QStringLiteral("%1 %2").arg(text(r->name), text(formatDuration(r->seconds)));
    QString detail = tr("%1: %2. Largest: %3.")
                         .arg(rankText(p), text(stepSecondsByKindText(p.stepTime)), rows.join(QStringLiteral("; ")));
    if (!p.losesBy.empty())
        detail += tr(" Against #1: %1.").arg(differences(p.losesBy));
    m_detail->setText(detail);
}

void LayoutPlanDialog::applyRow(int row) {
    if (!m_plan || row < 0 || row >= static_cast<int>(m_plan->top.size()))
        return;
    emit layoutApplied(m_plan->top[static_cast<std::size_t>(row)].input);
    accept();
}
