// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/results_column.h"

#include "widgets/controls/explain_pane.h"

#include <QCoreApplication>
#include <QEvent>
#include <QScrollArea>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <numeric>

ResultsColumn::ResultsColumn(QWidget* answers, ExplainPane* explain, QWidget* parent)
    : QSplitter(Qt::Vertical, parent)
    , m_answersScroll(new QScrollArea(this))
    , m_lower(new QWidget(this))
    , m_explain(explain) {
    m_answersScroll->setObjectName(QStringLiteral("answersScroll"));
    m_answersScroll->setWidget(answers);
    m_answersScroll->setWidgetResizable(true);
    auto* layout = new QVBoxLayout(m_lower);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_answersScroll);
    explain->setParent(m_lower);
    layout->addWidget(explain);
    addWidget(m_lower);
    setStretchFactor(0, kAnswersStretch);
    setChildrenCollapsible(false);
    connect(explain->toggleButton(), &QToolButton::toggled, this, &ResultsColumn::onExplainToggled);
    applyMinimumHeights();
}

void ResultsColumn::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange)
        applyMinimumHeights();
    QSplitter::changeEvent(event);
}

void ResultsColumn::applyMinimumHeights() {
    const int line = m_answersScroll->widget() ? m_answersScroll->widget()->fontMetrics().lineSpacing()
                                               : fontMetrics().lineSpacing();
    m_answersScroll->setMinimumHeight(kAnswersLines * line);
    m_explain->browser()->setMinimumHeight(kDerivationLines *
                                           m_explain->browser()->fontMetrics().lineSpacing());
}

void ResultsColumn::addChartPane(QWidget* pane, int stretch) {
    const int index = count() - 1; // above the answers
    insertWidget(index, pane);
    setStretchFactor(index, stretch);
    setStretchFactor(count() - 1, kAnswersStretch);
}

// The user opened the derivation to read it: once its lines are laid out, the answers' pane grows to
// kExplainShare of the column, the charts above sharing the rest as they did (down to their minimum
// heights), and where the column still scrolls the derivation is brought into view. Closed, the sizes
// before come back (unless the user dragged the handle meanwhile, which keeps theirs).
void ResultsColumn::onExplainToggled(bool expanded) {
    if (expanded)
        m_sizesBeforeExplain = sizes();
    const bool userDragged = !expanded && sizes() != m_sizesWithExplain;
    QTimer::singleShot(0, this, [this, expanded, userDragged] {
        if (m_explain->isExpanded() != expanded)
            return;
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // the pane's new minimum
        if (!expanded) {
            if (!userDragged && !m_sizesBeforeExplain.isEmpty())
                setSizes(m_sizesBeforeExplain);
            m_sizesBeforeExplain.clear();
            return;
        }
        growForDerivation();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        m_sizesWithExplain = sizes();
        for (QWidget* w = parentWidget(); w; w = w->parentWidget())
            if (auto* scroll = qobject_cast<QScrollArea*>(w)) {
                scroll->ensureWidgetVisible(m_explain, 0, 0);
                break;
            }
    });
}

void ResultsColumn::growForDerivation() {
    QList<int> now = sizes();
    const int total = std::accumulate(now.begin(), now.end(), 0);
    const int want = static_cast<int>(kExplainShare * total);
    if (total <= 0 || now.size() < 2 || now.back() >= want)
        return;
    const int chartsNow = total - now.back();
    const int chartsThen = total - want;
    for (int i = 0; i + 1 < now.size(); ++i)
        now[i] = chartsNow > 0 ? now[i] * chartsThen / chartsNow : chartsThen / (now.size() - 1);
    now.back() = want;
    setSizes(now);
}
