#include "app/accounting/run_cost_controls.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>

using namespace napkin;

namespace {

QDoubleSpinBox* spin(QWidget* parent, double lo, double hi, double step, int decimals, const QString& tip) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(lo, hi);
    box->setSingleStep(step);
    box->setDecimals(decimals);
    box->setToolTip(tip);
    return box;
}

// A checkbox that turns a value on, and the value beside it.
QWidget* optionalRow(QWidget* parent, QCheckBox* check, QDoubleSpinBox* box) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(check);
    layout->addWidget(box, 1);
    row->setFocusProxy(check);
    return row;
}

} // namespace

RunCostControls::RunCostControls(QWidget* parent)
    : QGroupBox(tr("Cost and energy"), parent)
    , m_priceOn(new QCheckBox(tr("$ per GPU-hour"), this))
    , m_gridOn(new QCheckBox(tr("own"), this))
    , m_price(spin(this, 0.01, 1e6, 0.1, 2,
                   tr("What one GPU-hour costs you, in dollars. No default: cloud prices differ by provider, "
                      "region and commitment. --price-per-gpu-hour on the command line.")))
    , m_fraction(spin(this, 0.01, 1, 0.05, 2,
                      tr("The GPUs' average draw as a fraction of their TDP (1: TDP, as Llama 2's model card "
                         "counts). --power-fraction")))
    , m_pue(spin(this, 1, 3, 0.05, 2,
                 tr("Power usage effectiveness: the data centre's total power over its IT power (1: the GPUs "
                    "alone). --pue")))
    , m_grid(
          spin(this, 0, 5, 0.01, 3,
               tr("kg CO2eq per kWh of the grid the run draws from. Default %1 kg/kWh: %2. --grid-intensity")
                   .arg(kDefaultGridKgCo2PerKwh, 0, 'f', 3)
                   .arg(QString::fromUtf8(kDefaultGridSource)))) {
    auto* form = new QFormLayout(this);
    form->addRow(tr("Pri&ce:"), optionalRow(this, m_priceOn, m_price));
    form->addRow(tr("Po&wer / TDP:"), m_fraction);
    form->addRow(tr("P&UE:"), m_pue);
    form->addRow(tr("Gri&d kg/kWh:"), optionalRow(this, m_gridOn, m_grid));
    m_gridOn->setToolTip(m_grid->toolTip());
    m_priceOn->setToolTip(m_price->toolTip());
    for (QCheckBox* c : {m_priceOn, m_gridOn})
        connect(c, &QCheckBox::toggled, this, &RunCostControls::onEdited);
    for (QDoubleSpinBox* b : {m_price, m_fraction, m_pue, m_grid})
        connect(b, &QDoubleSpinBox::valueChanged, this, &RunCostControls::onEdited);
    setCost(RunCostInput{});
}

RunCostInput RunCostControls::cost() const {
    RunCostInput c;
    if (m_priceOn->isChecked())
        c.pricePerGpuHour = m_price->value();
    c.powerFraction = m_fraction->value();
    c.pue = m_pue->value();
    if (m_gridOn->isChecked())
        c.gridKgCo2PerKwh = m_grid->value();
    return c;
}

void RunCostControls::setCost(const RunCostInput& c) {
    m_updating = true;
    m_priceOn->setChecked(c.pricePerGpuHour.has_value());
    m_price->setValue(c.pricePerGpuHour.value_or(2.0));
    m_fraction->setValue(c.powerFraction);
    m_pue->setValue(c.pue);
    m_gridOn->setChecked(c.gridKgCo2PerKwh.has_value());
    m_grid->setValue(c.gridKgCo2PerKwh.value_or(kDefaultGridKgCo2PerKwh));
    m_price->setEnabled(m_priceOn->isChecked());
    m_grid->setEnabled(m_gridOn->isChecked());
    m_updating = false;
}

QWidget* RunCostControls::controlFor(const std::string& field) const {
    if (field == "price-per-gpu-hour")
        return m_price->parentWidget(); // the row of the checkbox and the box: a row of the form
    if (field == "power-fraction")
        return m_fraction;
    if (field == "pue")
        return m_pue;
    if (field == "grid-intensity")
        return m_grid->parentWidget();
    return nullptr;
}

void RunCostControls::onEdited() {
    m_price->setEnabled(m_priceOn->isChecked());
    m_grid->setEnabled(m_gridOn->isChecked());
    if (!m_updating)
        emit changed();
}
