// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parallel layout as controls (the Parallelism group of the accounting page): tensor, pipeline,
// sequence, context and expert parallelism, the micro-batches, the virtual stages and uneven stages' layers,
// with the data parallelism they leave. The sizes' boxes are their table's (parallel_layout_knobs.h).
#include "engine/models/model_spec.h"
#include "engine/accounting/parallel_layout.h"

#include <QGroupBox>

#include <string>
#include <string_view>
#include <vector>

class QCheckBox;
class QLabel;
class QSpinBox;

class ParallelismControls : public QGroupBox {
    Q_OBJECT
public:
    explicit ParallelismControls(QWidget* parent = nullptr);

    napkin::ParallelLayout parallel() const;
    /// Shows `layout` without emitting changed().
    void setParallel(const napkin::ParallelLayout& layout);
    /// Updates what applies to `model` on `gpus` GPUs (disabled controls say why) and the dp shown.
    void setContext(const napkin::ModelSpec& model, double gpus);
    /// The control a validation field names ("tp", "sp", "microbatches", ...), or nullptr.
    QWidget* controlFor(const std::string& field) const;

    /// The box of the layout knob whose scenario key is `key` ("tp", "virtual_stages"), or nullptr.
    QSpinBox* box(std::string_view key) const;
    QSpinBox* tpBox() const { return box("tp"); }
    QSpinBox* ppBox() const { return box("pp"); }
    QCheckBox* spCheck() const { return m_sp; }
    QSpinBox* cpBox() const { return box("cp"); }
    QSpinBox* epBox() const { return box("ep"); }
    QSpinBox* microbatchesBox() const { return box("microbatches"); }
    QSpinBox* virtualStagesBox() const { return box("virtual_stages"); }
    /// The checkbox that sets an optional layout knob ("first_stage_layers"), or nullptr.
    QCheckBox* check(std::string_view key) const;
    /// "dp = 64 / (8 × 4 × 1) = 2", or why it is not whole.
    QString dataParallelText() const;

signals:
    void changed();

private:
    void onEdited();
    void updateApplicability();

    std::vector<QSpinBox*> m_boxes; ///< one per parallelLayoutKnobs() entry, in its order
    /// Beside an optional knob's box (the uneven stages' layers): set or not; nullptr for the others.
    std::vector<QCheckBox*> m_checks;
    QCheckBox* m_sp;
    QLabel* m_dp;
    napkin::ModelSpec m_model;
    double m_gpus = 1;
    bool m_updating = false;
};
