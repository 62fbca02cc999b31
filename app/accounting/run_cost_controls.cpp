// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/run_cost_controls.h"

#include "app/model/number_knob_rows.h"
#include "engine/accounting/run_cost_knobs.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>

using namespace napkin;

RunCostControls::RunCostControls(QWidget* parent)
    : QGroupBox(tr("Cost and energy"), parent) {
    // The rows of the run cost's table (run_cost_knobs.h): its ranges, steps and words, as the CLI's.
    m_rows = addNumberKnobRows(new QFormLayout(this), this, runCostKnobs());
    for (const NumberKnobRow& r : m_rows) {
        if (r.check)
            connect(r.check, &QCheckBox::toggled, this, &RunCostControls::onEdited);
        connect(r.box, &QDoubleSpinBox::valueChanged, this, &RunCostControls::onEdited);
    }
    setCost(RunCostInput{});
}

RunCostInput RunCostControls::cost() const {
    return numberKnobValues(runCostKnobs(), m_rows, RunCostInput{});
}

void RunCostControls::setCost(const RunCostInput& c) {
    m_updating = true;
    showNumberKnobValues(runCostKnobs(), m_rows, c);
    m_updating = false;
}

QWidget* RunCostControls::controlFor(const std::string& field) const {
    return numberKnobRowFor(runCostKnobs(), m_rows, field);
}

void RunCostControls::onEdited() {
    for (const NumberKnobRow& r : m_rows)
        if (r.check)
            r.box->setEnabled(r.check->isChecked());
    if (!m_updating)
        emit changed();
}
