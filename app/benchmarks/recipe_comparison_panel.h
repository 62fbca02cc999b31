// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The recipes of one Cruncher setup side by side (the Benchmarks page's "Compare recipes"): a table with
// each recipe's step time (measured, and under the table predicted from the training panel's hardware
// profile), MFU against its own peak, peak memory predicted and measured and final loss,
// the recipes the device refused listed with its reason, and every recipe's loss curve on one chart. The
// exports are the documents of `napkin-cli bench train --precision LIST --json`.
#include "app/benchmarks/recipe_comparison.h"

#include <QGroupBox>

#include <optional>
#include <vector>

class LossChart;
class QLabel;
class QTableWidget;

class RecipeComparisonPanel : public QGroupBox {
    Q_OBJECT
public:
    /// The table's columns.
    enum Column { recipe, stepTime, mfu, peakPredicted, peakMeasured, finalLoss, status };

    explicit RecipeComparisonPanel(QWidget* parent = nullptr);

    /// The recipes the chosen device refuses, each a row with the reason, until a comparison is shown.
    void setRefusedRecipes(const std::vector<RecipeRefusal>& refused);
    /// A comparison still training: the recipes `plan` runs and refuses, the curves as far as they got (of
    /// `steps` each); the figures wait for the end.
    void showRunningComparison(const RecipeComparison& plan, const std::vector<RecipeLosses>& curves,
                               long steps);
    /// A finished comparison (a cancelled one keeps the runs it finished), or none.
    void showComparison(const std::optional<RecipeComparison>& comparison);
    const std::optional<RecipeComparison>& comparison() const { return m_comparison; }

    /// The loss chart as PNG, the comparison as CSV or JSON; an error message or "".
    QString exportChartPng(const QString& path) const;
    QString exportCsv(const QString& path) const;
    QString exportJson(const QString& path) const;

    LossChart* chart() const { return m_chart; }
    QTableWidget* table() const { return m_table; }

private:
    /// One row per compared recipe, in order: its run's figures, else the refusal's reason, else statuses[i].
    void fillTable(const RecipeComparison& comparison, const std::vector<QString>& statuses);
    void addRunRow(const napkin::TrainingRun& run);

    LossChart* m_chart;
    QTableWidget* m_table;
    QLabel* m_note;
    QLabel* m_predicted; ///< each run's step measured beside predicted (or why not), one line per recipe
    std::vector<RecipeRefusal> m_refused; ///< the device's, shown before a comparison
    std::optional<RecipeComparison> m_comparison;
};
