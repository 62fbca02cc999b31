// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Find the fastest layout…" on the Accounting page: the engine's layout search (engine/planning, the same
// as `napkin-cli plan`) over the page's setup, run off the GUI thread with progress and Cancel; the top
// layouts in a table (step time, MFU, memory, how each differs from the first and what that costs), where
// the page's own layout ranks, and when nothing fits, why. Apply (or a double-click) hands the chosen
// layout back to the page, which sets its controls to it.
#include "engine/accounting/accounting.h"
#include "engine/planning/layout_plan.h"

#include <QDialog>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class TaskRunner;

class LayoutPlanDialog : public QDialog {
    Q_OBJECT
public:
    /// How many layouts the table ranks.
    static constexpr int kTop = 10;

    /// Starts the search for `base` (the page's input: its model, precision, optimizer, GPU and count, and
    /// its own layout, placed in the ranking) on the GPU's published profile.
    explicit LayoutPlanDialog(const napkin::AccountingInput& base, QWidget* parent = nullptr);
    ~LayoutPlanDialog() override;

    /// The search's answer once it has arrived (a cancelled search's too: what it ranked by then).
    const std::optional<napkin::LayoutPlan>& plan() const { return m_plan; }
    bool isSearching() const;
    QTableWidget* table() const { return m_table; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* detailLabel() const { return m_detail; }
    QPushButton* applyButton() const { return m_apply; }
    QPushButton* cancelButton() const { return m_cancel; }

signals:
    /// The layout of the table's row the user applied: the base with that layout (withLayoutChoice).
    void layoutApplied(const napkin::AccountingInput& input);
    /// The search ended (with a plan, cancelled, or with an error in the summary).
    void searchFinished();

private:
    void start();
    void showPlan(const napkin::LayoutPlan& plan);
    void showRow(int row);
    void applyRow(int row);

    napkin::AccountingInput m_base;
    std::optional<napkin::LayoutPlan> m_plan;
    TaskRunner* m_runner;
    QLabel* m_summary;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QTableWidget* m_table;
    QLabel* m_detail;
    QPushButton* m_apply;
};
