// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fine-tuning as controls (the Fine-tuning group of the accounting page): full training, LoRA or QLoRA
// with its rank, alpha and target matrices, and offloading the optimizer's states to the host.
#include "engine/accounting/fine_tuning.h"

#include <QGroupBox>

#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

class FineTuningControls : public QGroupBox {
    Q_OBJECT
public:
    explicit FineTuningControls(QWidget* parent = nullptr);

    napkin::FineTuning fineTuning() const;
    /// Shows `fineTuning` without emitting changed().
    void setFineTuning(const napkin::FineTuning& fineTuning);
    /// The control a validation field names ("finetune", "lora-rank", ...), or nullptr.
    QWidget* controlFor(const std::string& field) const;

    QComboBox* methodBox() const { return m_method; }
    QSpinBox* rankBox() const { return m_rank; }
    QComboBox* offloadBox() const { return m_offload; }
    QCheckBox* targetCheck(napkin::LoraTarget target) const;

signals:
    void changed();

private:
    void onEdited();
    void updateApplicability();

    QComboBox *m_method, *m_offload;
    QSpinBox* m_rank;
    QDoubleSpinBox* m_alpha;
    QWidget* m_targetsRow;
    std::vector<std::pair<napkin::LoraTarget, QCheckBox*>> m_targets;
    bool m_updating = false;
};
