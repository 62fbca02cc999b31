// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/overhead_controls.h"

#include "engine/accounting/memory_overhead_knobs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>

using namespace napkin;

namespace {

// The switches in the order of MemoryOverheadSettings and of --overheads' names.
constexpr std::array<bool MemoryOverheadSettings::*, 5> kFlags{
    &MemoryOverheadSettings::cudaContext, &MemoryOverheadSettings::libraryWorkspaces,
    &MemoryOverheadSettings::allocatorRounding, &MemoryOverheadSettings::ncclBuffers,
    &MemoryOverheadSettings::fp8Copies};

} // namespace

OverheadControls::OverheadControls(QWidget* parent)
    : QGroupBox(tr("Memory overheads"), parent)
    , m_basis(new QComboBox(this)) {
    auto* form = new QFormLayout(this);
    m_basis->addItem(tr("usable + overheads"), static_cast<int>(MemoryBasis::usable));
    m_basis->addItem(tr("datasheet (lecture)"), static_cast<int>(MemoryBasis::datasheet));
    m_basis->setToolTip(
        tr("What “fits” is judged against. Usable: the memory the driver reports (an H100 SXM "
           "shows 81,559 MiB, not 80e9 B) against the step's peak plus the overheads below. "
           "Datasheet: the lecture's 80 GB = 80e9 B and no overheads. --memory-basis on the "
           "command line."));
    form->addRow(tr("Fits a&gainst:"), m_basis);
    const std::array<QString, 5> labels{tr("CUDA context"), tr("cuBLAS workspaces"), tr("allocator rounding"),
                                        tr("NCCL buffers"), tr("fp8 copies")};
    const std::array<QString, 5> tips{
        tr("The CUDA context: a cited figure for the GPU and CUDA version, else “not measured” (0)."),
        tr("PyTorch's cuBLAS workspaces (32 MiB each on Hopper) and cuBLASLt's (1 MiB)."),
        tr("PyTorch's caching allocator rounds every saved tensor up to 512 bytes."),
        tr("NCCL's buffers per communicator: counted once the channels are set."),
        tr("An fp8 recipe's fp8 weight copies (and transposes on Hopper) and amax histories.")};
    for (std::size_t i = 0; i < m_switches.size(); ++i) {
        m_switches[i] = new QCheckBox(labels[i], this);
        m_switches[i]->setToolTip(tips[i]);
        form->addRow(QString(), m_switches[i]);
        connect(m_switches[i], &QCheckBox::toggled, this, &OverheadControls::onEdited);
    }
    // The numbers are the overhead table's rows (memory_overhead_knobs.h), as napkin-cli's options are.
    m_rows = addNumberKnobRows(form, this, memoryOverheadKnobs());
    for (const NumberKnobRow& r : m_rows) {
        if (r.check)
            connect(r.check, &QCheckBox::toggled, this, &OverheadControls::onEdited);
        connect(r.box, &QDoubleSpinBox::valueChanged, this, &OverheadControls::onEdited);
    }
    connect(m_basis, &QComboBox::currentIndexChanged, this, &OverheadControls::onEdited);
    setSettings(MemoryOverheadSettings{});
}

MemoryOverheadSettings OverheadControls::settings() const {
    MemoryOverheadSettings s = m_kept;
    s.basis = static_cast<MemoryBasis>(m_basis->currentData().toInt());
    for (std::size_t i = 0; i < m_switches.size(); ++i)
        s.*kFlags[i] = m_switches[i]->isChecked();
    return numberKnobValues(memoryOverheadKnobs(), m_rows, s);
}

void OverheadControls::setSettings(const MemoryOverheadSettings& s) {
    m_updating = true;
    m_kept = s;
    m_basis->setCurrentIndex(std::max(0, m_basis->findData(static_cast<int>(s.basis))));
    for (std::size_t i = 0; i < m_switches.size(); ++i)
        m_switches[i]->setChecked(s.*kFlags[i]);
    showNumberKnobValues(memoryOverheadKnobs(), m_rows, s);
    updateApplicability();
    m_updating = false;
}

QWidget* OverheadControls::controlFor(const std::string& field) const {
    return numberKnobRowFor(memoryOverheadKnobs(), m_rows, field);
}

QDoubleSpinBox* OverheadControls::knobBox(std::string_view field) const {
    const auto* row = numberKnobRowOf(memoryOverheadKnobs(), m_rows, field);
    return row ? row->box : nullptr;
}

QCheckBox* OverheadControls::knobCheck(std::string_view field) const {
    const auto* row = numberKnobRowOf(memoryOverheadKnobs(), m_rows, field);
    return row ? row->check : nullptr;
}

void OverheadControls::onEdited() {
    updateApplicability();
    if (!m_updating)
        emit changed();
}

// The datasheet basis counts no overhead: its switches would change nothing.
void OverheadControls::updateApplicability() {
    const bool usable = static_cast<MemoryBasis>(m_basis->currentData().toInt()) == MemoryBasis::usable;
    for (QCheckBox* c : m_switches)
        c->setEnabled(usable);
    for (const NumberKnobRow& r : m_rows) {
        if (r.check)
            r.check->setEnabled(usable);
        r.box->setEnabled(usable && (!r.check || r.check->isChecked()));
    }
}
