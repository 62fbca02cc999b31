#pragma once
// What a run costs, as controls (the "Cost and energy" group of the accounting page): the price per
// GPU-hour (none by default: a price is the user's), the GPUs' draw as a fraction of TDP, the data centre's
// PUE and the grid's carbon intensity (a cited default until the user gives their own).
#include "engine/accounting/run_cost.h"

#include <QGroupBox>

#include <string>

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

    QCheckBox* priceCheck() const { return m_priceOn; }
    QDoubleSpinBox* priceBox() const { return m_price; }
    QDoubleSpinBox* powerFractionBox() const { return m_fraction; }
    QDoubleSpinBox* pueBox() const { return m_pue; }
    QCheckBox* gridCheck() const { return m_gridOn; }
    QDoubleSpinBox* gridBox() const { return m_grid; }

signals:
    void changed();

private:
    void onEdited();

    QCheckBox *m_priceOn, *m_gridOn;
    QDoubleSpinBox *m_price, *m_fraction, *m_pue, *m_grid;
    bool m_updating = false;
};
