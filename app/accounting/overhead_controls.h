#pragma once
// The overhead ledger's settings as controls (the Memory overheads group of the accounting page): the
// basis "fits" is judged against (usable memory with the overheads, or the datasheet's, the lecture's
// convention), a switch per line, the fragmentation allowance and NCCL's channels. The settings with no
// control here (CUDA major, a measured context, NCCL_BUFFSIZE) are kept as they were set.
#include "engine/accounting/memory_overheads.h"

#include <QGroupBox>

#include <array>
#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

class OverheadControls : public QGroupBox {
    Q_OBJECT
public:
    explicit OverheadControls(QWidget* parent = nullptr);

    napkin::MemoryOverheadSettings settings() const;
    /// Shows `settings` without emitting changed().
    void setSettings(const napkin::MemoryOverheadSettings& settings);
    /// The control a validation field names ("fragmentation", "nccl-channels"), or nullptr.
    QWidget* controlFor(const std::string& field) const;

    QComboBox* basisBox() const { return m_basis; }
    QCheckBox* switchCheck(int index) const { return m_switches[static_cast<std::size_t>(index)]; }
    QDoubleSpinBox* fragmentationBox() const { return m_fragmentation; }
    QSpinBox* ncclChannelsBox() const { return m_ncclChannels; }

signals:
    void changed();

private:
    void onEdited();
    void updateApplicability();

    QComboBox* m_basis;
    std::array<QCheckBox*, 5> m_switches{}; ///< context, workspaces, rounding, nccl, fp8
    QDoubleSpinBox* m_fragmentation;
    QSpinBox* m_ncclChannels;              ///< 0: not set
    napkin::MemoryOverheadSettings m_kept; ///< what has no control here
    bool m_updating = false;
};
