// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The overhead ledger's settings as controls (the Memory overheads group of the accounting page): the
// basis "fits" is judged against (usable memory with the overheads, or the datasheet's, the lecture's
// convention), a switch per line, and a row per number of the overhead table (memory_overhead_knobs.h:
// fragmentation, CUDA major, a measured CUDA context, NCCL's channels and buffer), with the table's
// ranges, steps and words, so the page accepts what napkin-cli and a scenario file accept.
#include "app/model/number_knob_rows.h"
#include "engine/accounting/memory_overheads.h"

#include <QGroupBox>

#include <array>
#include <string>
#include <string_view>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;

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
    /// The box of the table's knob named `field` ("fragmentation", "nccl-channels"), or nullptr.
    QDoubleSpinBox* knobBox(std::string_view field) const;
    /// The checkbox of an optional knob ("cuda-context", "nccl-channels"), or nullptr.
    QCheckBox* knobCheck(std::string_view field) const;

signals:
    void changed();

private:
    void onEdited();
    void updateApplicability();

    QComboBox* m_basis;
    std::array<QCheckBox*, 5> m_switches{}; ///< context, workspaces, rounding, nccl, fp8
    std::vector<NumberKnobRow> m_rows;      ///< one per memoryOverheadKnobs() entry, in its order
    napkin::MemoryOverheadSettings m_kept;  ///< the basis and switches' struct, the rows written over it
    bool m_updating = false;
};
