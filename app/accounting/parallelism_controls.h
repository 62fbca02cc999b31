#pragma once
// The parallel layout as controls (the Parallelism group of the accounting page): tensor, pipeline,
// sequence, context and expert parallelism and the micro-batches, with the data parallelism they leave.
#include "engine/accounting/model_spec.h"
#include "engine/accounting/parallel_layout.h"

#include <QGroupBox>

#include <string>

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

    QSpinBox* tpBox() const { return m_tp; }
    QSpinBox* ppBox() const { return m_pp; }
    QCheckBox* spCheck() const { return m_sp; }
    QSpinBox* cpBox() const { return m_cp; }
    QSpinBox* epBox() const { return m_ep; }
    QSpinBox* microbatchesBox() const { return m_microbatches; }
    QSpinBox* virtualStagesBox() const { return m_virtualStages; }
    /// "dp = 64 / (8 × 4 × 1) = 2", or why it is not whole.
    QString dataParallelText() const;

signals:
    void changed();

private:
    void onEdited();
    void updateApplicability();

    QSpinBox *m_tp, *m_pp, *m_cp, *m_ep, *m_microbatches, *m_virtualStages;
    QCheckBox* m_sp;
    QLabel* m_dp;
    napkin::ModelSpec m_model;
    double m_gpus = 1;
    bool m_updating = false;
};
