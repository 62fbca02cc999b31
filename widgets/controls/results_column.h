// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The column of results beside a page's controls, written once for the Accounting and Inference pages:
// chart panes on top, then the answers (scrolling) with "How is this computed?" under them. At a
// projector's 1280×720 the charts yield: the answers get the larger share of the height, and opening How
// is this computed? gives the derivation most of the column (the sizes before come back when it closes),
// where the fixed 3:3:2 split once left the answers ~190 px and the derivation ~110. Neither is ever
// squeezed below a readable number of lines: where the charts' minimum heights leave less (presentation
// type, a short window), the column grows and scrolls, as it does for the charts, and opening the
// derivation scrolls it into view.
#include <QList>
#include <QSplitter>

class ExplainPane;
class QScrollArea;

class ResultsColumn : public QSplitter {
    Q_OBJECT
public:
    /// `answers` scrolls inside the column's last pane, above `explain`.
    ResultsColumn(QWidget* answers, ExplainPane* explain, QWidget* parent = nullptr);

    /// Adds a chart pane above the answers, after the panes added before; `stretch` is its share of the
    /// height against the answers' kAnswersStretch.
    void addChartPane(QWidget* pane, int stretch);
    QScrollArea* answersScroll() const { return m_answersScroll; }

    /// The answers' share of the height against the panes' (each 2 on both pages).
    static constexpr int kAnswersStretch = 3;
    /// Open, How is this computed? takes at least this fraction of the column (the charts keep their
    /// minimum height, so on a short window they may leave it less).
    static constexpr double kExplainShare = 0.6;
    /// The answers are never shorter than this many lines of their type, the open derivation than
    /// kDerivationLines.
    static constexpr int kAnswersLines = 11;
    static constexpr int kDerivationLines = 14;

protected:
    void changeEvent(QEvent* event) override;

private:
    void onExplainToggled(bool expanded);
    void growForDerivation();
    /// The minimum heights in lines of the current type (presentation mode's is larger).
    void applyMinimumHeights();

    QScrollArea* m_answersScroll;
    QWidget* m_lower;
    ExplainPane* m_explain;
    QList<int> m_sizesBeforeExplain; ///< restored when the derivation closes
    QList<int> m_sizesWithExplain;   ///< as set when it opened: another size is the user's drag, kept
};
