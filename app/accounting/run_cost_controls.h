// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a run costs, as controls (the "Cost and energy" group of the accounting page): the price per
// GPU-hour (none by default: a price is the user's), the GPUs' draw as a fraction of TDP, the data centre's
// PUE and the grid's carbon intensity (a cited default until the user gives their own).
#include "app/model/number_knob_rows.h"
#include "engine/accounting/run_cost.h"

#include <QGroupBox>

#include <string>
#include <vector>

class QCheckBox;
class QDoubleSpinBox;

class RunCostControls : public QGroupBox {
    Q_OBJECT
public:
    explicit RunCostControls(QWidget* parent = nullptr);

    napkin::RunCostInput cost() const;
    /// Shows `cost` without emitting changed().
    void setCost(const napkin::RunCostInput& cost);
    /// The control a validation field names ("price-per-gpu-hour", "pue", ...), or nullptr.
    QWidget* controlFor(const std::string& field) const;

    // The rows in the table's order (run_cost_knobs.h): price, power fraction, PUE, grid intensity.
    QCheckBox* priceCheck() const { return m_rows[0].check; }
    QDoubleSpinBox* priceBox() const { return m_rows[0].box; }
    QDoubleSpinBox* powerFractionBox() const { return m_rows[1].box; }
    QDoubleSpinBox* pueBox() const { return m_rows[2].box; }
    QCheckBox* gridCheck() const { return m_rows[3].check; }
    QDoubleSpinBox* gridBox() const { return m_rows[3].box; }

signals:
    void changed();

private:
    void onEdited();

    std::vector<NumberKnobRow> m_rows;
    bool m_updating = false;
};
