// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every input of the accounting engine as a keyboard-operable control. Shows an AccountingInput
// through setInput() and emits inputChanged() when the user changes anything.
#include "engine/accounting/accounting.h"
#include "engine/accounting/number_knob.h"
#include "engine/scenario/control_ranges.h"
#include "engine/scenario/scenario.h"
#include "widgets/controls/field_error_row.h"

#include <QWidget>

class ArchitectureControls;
class LogSliderField;
class FineTuningControls;
class ParallelismControls;
class RunCostControls;
class ShardingControls;
class NumberField;
class OverheadControls;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;

class AccountingControls : public QWidget {
    Q_OBJECT
public:
    explicit AccountingControls(QWidget* parent = nullptr);

    /// The input the controls describe now.
    napkin::AccountingInput input() const;
    /// Shows `input` in every control without emitting inputChanged.
    void setInput(const napkin::AccountingInput& input);
    /// Every field for a scenario file: unlike input(), also the sizes of the model kinds not shown
    /// and the tokens field while "count totals" is off (page_scenarios.cpp).
    napkin::AccountingScenario fieldValues() const;
    /// Shows every field of `values` (the units and preset are the page's) without emitting inputChanged.
    void setFieldValues(const napkin::AccountingScenario& values);

    // The controls themselves, for tests and for the page's tab order.
    QComboBox* modelKindBox() const { return m_kind; }
    LogSliderField* parametersField() const { return m_params; }
    NumberField* dimField() const { return m_dim; }
    NumberField* layersField() const { return m_layers; }
    NumberField* outField() const { return m_out; }
    NumberField* dModelField() const { return m_dModel; }
    NumberField* headsField() const { return m_heads; }
    NumberField* vocabField() const { return m_vocab; }
    NumberField* seqField() const { return m_seq; }
    NumberField* batchField() const { return m_batch; }
    QCheckBox* tokensCheck() const { return m_tokensOn; }
    LogSliderField* tokensField() const { return m_tokens; }
    QComboBox* precisionBox() const { return m_precision; }
    QCheckBox* fp32GradientsCheck() const { return m_fp32Gradients; }
    QComboBox* optimizerBox() const { return m_optimizer; }
    QComboBox* gpuBox() const { return m_gpu; }
    NumberField* gpusField() const { return m_gpus; }
    NumberField* mfuField() const { return m_mfu; }
    QComboBox* zeroBox() const { return m_zero; }
    QComboBox* recomputeBox() const { return m_recompute; }
    QComboBox* attentionBox() const { return m_attention; }
    QComboBox* activationsOfBox() const { return m_activationsOf; }
    QComboBox* optimizerImplementationBox() const { return m_optimizerImplementation; }
    NumberField* ffnMultField() const { return m_ffn; }
    ArchitectureControls* architecture() const { return m_architecture; }
    ParallelismControls* parallelism() const { return m_parallelism; }
    ShardingControls* sharding() const { return m_sharding; }
    FineTuningControls* fineTuning() const { return m_fineTuning; }
    RunCostControls* runCost() const { return m_runCost; }

    /// Shows under the precision what the GPU cannot do with it ("no bf16 tensor cores: the fp32 rate"),
    /// or hides the note when `note` is empty.
    void setCapabilityNote(const QString& note);
    QString capabilityNoteText() const;
    OverheadControls* overheads() const { return m_overheads; }

    /// Shows `message` right under the control that validation `field` names ("tp", "kv-heads", "heads",
    /// ...), replacing any earlier one; a field with no control of its own shows nothing here.
    void showFieldError(const std::string& field, const QString& message);
    void clearFieldError();
    /// The message shown next to a control, and that control; empty / nullptr when none.
    QString fieldErrorText() const;
    QWidget* fieldErrorControl() const { return m_fieldError.control(); }

signals:
    void inputChanged();

private:
    void showRowsForModel();
    void emitChanged();
    void updateApplicability();
    QWidget* controlFor(const std::string& field) const;
    /// Counts (the most fields here) refuse fractions as they are typed; the FFN multiple may be 8/3.
    enum class Fractions { refused, allowed };
    NumberField* makeField(napkin::ControlRange range, const QString& tip,
                           Fractions fractions = Fractions::refused);
    /// A field for a knob of a table (training_knobs.h): its range, words and tooltip.
    NumberField* makeField(const napkin::NumberKnob<napkin::AccountingInput>& knob);

    QFormLayout* m_modelForm = nullptr;
    QComboBox* m_kind;
    LogSliderField* m_params;
    NumberField *m_dim, *m_layers, *m_out, *m_dModel, *m_heads, *m_vocab, *m_seq, *m_ffn, *m_batch, *m_gpus,
        *m_mfu;
    QCheckBox* m_tokensOn;
    LogSliderField* m_tokens;
    QComboBox* m_precision;
    QCheckBox* m_fp32Gradients;
    QComboBox* m_optimizer;
    QComboBox* m_gpu;
    QComboBox* m_zero;
    QComboBox* m_recompute;
    QComboBox* m_attention;
    QComboBox* m_activationsOf;
    QComboBox* m_optimizerImplementation; ///< torch.optim's foreach, single-tensor or fused update
    ArchitectureControls* m_architecture;
    OverheadControls* m_overheads = nullptr;
    ParallelismControls* m_parallelism;
    ShardingControls* m_sharding;
    FineTuningControls* m_fineTuning;
    RunCostControls* m_runCost;
    QLabel* m_capabilityNote = nullptr;
    QFormLayout* m_trainingForm = nullptr;
    FieldErrorRow m_fieldError;
    QString m_ffnTip;
    bool m_updating = false;
};
