#include "app/accounting/overhead_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

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
    , m_basis(new QComboBox(this))
    , m_fragmentation(new QDoubleSpinBox(this))
    , m_ncclChannels(new QSpinBox(this)) {
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
    m_fragmentation->setRange(0, 0.99);
    m_fragmentation->setSingleStep(0.01);
    m_fragmentation->setDecimals(2);
    m_fragmentation->setToolTip(
        tr("Fragmentation allowance: a fraction of the step's allocations the allocator "
           "holds beyond them. 0 by default: PyTorch documents no typical figure; a "
           "run's max_memory_reserved / max_memory_allocated − 1 is yours."));
    form->addRow(tr("Fra&gmentation:"), m_fragmentation);
    m_ncclChannels->setRange(0, 1024);
    m_ncclChannels->setSpecialValueText(tr("not set"));
    m_ncclChannels->setToolTip(tr("NCCL channels per communicator (NCCL_DEBUG=INFO prints them); not set: "
                                  "NCCL's buffers are not counted."));
    form->addRow(tr("NCCL c&hannels:"), m_ncclChannels);
    connect(m_basis, &QComboBox::currentIndexChanged, this, &OverheadControls::onEdited);
    connect(m_fragmentation, &QDoubleSpinBox::valueChanged, this, &OverheadControls::onEdited);
    connect(m_ncclChannels, &QSpinBox::valueChanged, this, &OverheadControls::onEdited);
    setSettings(MemoryOverheadSettings{});
}

MemoryOverheadSettings OverheadControls::settings() const {
    MemoryOverheadSettings s = m_kept;
    s.basis = static_cast<MemoryBasis>(m_basis->currentData().toInt());
    for (std::size_t i = 0; i < m_switches.size(); ++i)
        s.*kFlags[i] = m_switches[i]->isChecked();
    s.fragmentation = m_fragmentation->value();
    if (m_ncclChannels->value() > 0)
        s.ncclChannels = m_ncclChannels->value();
    else
        s.ncclChannels.reset();
    return s;
}

void OverheadControls::setSettings(const MemoryOverheadSettings& s) {
    m_updating = true;
    m_kept = s;
    m_basis->setCurrentIndex(std::max(0, m_basis->findData(static_cast<int>(s.basis))));
    for (std::size_t i = 0; i < m_switches.size(); ++i)
        m_switches[i]->setChecked(s.*kFlags[i]);
    m_fragmentation->setValue(s.fragmentation);
    m_ncclChannels->setValue(s.ncclChannels ? static_cast<int>(*s.ncclChannels) : 0);
    updateApplicability();
    m_updating = false;
}

QWidget* OverheadControls::controlFor(const std::string& field) const {
    if (field == "fragmentation")
        return m_fragmentation;
    if (field == "nccl-channels")
        return m_ncclChannels;
    return nullptr;
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
    m_fragmentation->setEnabled(usable);
    m_ncclChannels->setEnabled(usable);
}
