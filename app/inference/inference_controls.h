// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Inference page's controls: a model (published, a shipped config.json, or one the user opened),
// its Architecture group, the GPU and how many, the weight and KV-cache formats, and sliders for context S
// and batch B (prompt P optional). They map to and from napkin::InferenceScenario; a refused combination
// is shown next to the control that caused it.
#include "engine/models/checkpoint_format.h"
#include "engine/scenario/scenario.h"
#include "widgets/controls/field_error_row.h"

#include <optional>

#include <QString>
#include <QWidget>

class ArchitectureControls;
class LogSliderField;
class QCheckBox;
class QDoubleSpinBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QToolButton;

class InferenceControls : public QWidget {
    Q_OBJECT
public:
    explicit InferenceControls(QWidget* parent = nullptr);

    /// What to account for now (may be invalid: the page validates it).
    napkin::InferenceInput input() const;
    /// Every control, for a scenario file; and back, without emitting inputChanged.
    napkin::InferenceScenario values() const;
    void setValues(const napkin::InferenceScenario& values);

    /// Shows `model` (a config.json the user opened) as the model, under `label` in the model box at its
    /// own context, without emitting inputChanged. The box keeps one such entry; the next replaces it.
    /// `checkpoint`, the config's quantization_config, becomes the weight format shown (the user can
    /// still pick another).
    void setOwnModel(const napkin::ModelSpec& model, const QString& label,
                     const std::optional<napkin::CheckpointFormat>& checkpoint = std::nullopt);
    /// The chosen model's checkpoint format (a config's quantization_config), if it has one.
    const std::optional<napkin::CheckpointFormat>& checkpointFormat() const { return m_checkpoint; }
    /// "Weights in the checkpoint's format: ..." under the weights box; empty without a checkpoint format.
    QString weightsNoteText() const;

    /// A red message under the control that `field` (validateInference's field name) names; the model
    /// box when the field belongs to the model and no architecture control holds it. One at a time.
    void showFieldError(const std::string& field, const QString& message);
    void clearFieldError();
    QString fieldErrorText() const;
    /// The control a field name belongs to (tests check where the message went).
    QWidget* controlFor(const std::string& field) const;
    /// The control the current message sits under; nullptr when there is none.
    QWidget* fieldErrorControl() const { return m_fieldError.control(); }

    QComboBox* presetBox() const { return m_preset; }
    ArchitectureControls* architecture() const { return m_architecture; }
    /// Shows or hides the Architecture group (hidden on a fresh page: the model box is the first choice).
    QToolButton* architectureToggle() const { return m_architectureToggle; }
    bool isArchitectureShown() const;
    void setArchitectureShown(bool shown);
    QComboBox* gpuBox() const { return m_gpu; }
    QSpinBox* gpusBox() const { return m_gpus; }
    QComboBox* weightsBox() const { return m_weights; }
    QSpinBox* groupSizeBox() const { return m_groupSize; }
    QComboBox* kvCacheBox() const { return m_kvCache; }
    QComboBox* memoryBasisBox() const { return m_memoryBasis; }
    LogSliderField* contextSlider() const { return m_context; }
    LogSliderField* batchSlider() const { return m_batch; }
    QCheckBox* promptIsContextBox() const { return m_promptIsContext; }
    QCheckBox* priceCheck() const { return m_priceOn; }
    QDoubleSpinBox* priceBox() const { return m_price; }
    LogSliderField* promptSlider() const { return m_prompt; }

signals:
    void inputChanged();

private:
    /// The greyed prompt field shows what the formulas use: the context while "prompt = context" is ticked.
    void showPrompt();
    void updateEnabled();
    /// The model box's entry chosen: its model in the Architecture group, at its own context.
    void onModelChosen();
    /// Selects the model box entry for a config of the user's own, adding it (under a header) if needed.
    void showOwnModelEntry(const QString& label);
    /// "Llama 3 70B (modified)" while the architecture differs from the entry's model.
    void showModified();
    /// The checkpoint format of the model box's entry `id` (empty: the config the user opened).
    std::optional<napkin::CheckpointFormat> checkpointOf(const QString& id) const;
    /// Selects the checkpoint's format in the weights box (bf16 when the new model has none and the
    /// format shown came from the previous model's checkpoint), without emitting inputChanged.
    void showCheckpointFormat();
    void showWeightsNote();

    QFormLayout* m_form;
    QComboBox* m_preset;
    ArchitectureControls* m_architecture;
    QToolButton* m_architectureToggle;
    /// The model shown, with its sizes; the Architecture group's options are applied on top.
    napkin::ModelSpec m_model;
    /// The chosen entry's own model (what "(modified)" compares with), and the last config opened.
    napkin::ModelSpec m_entryModel, m_ownModel;
    QComboBox* m_gpu;
    QSpinBox* m_gpus;
    QComboBox* m_weights;
    QLabel* m_weightsNote; ///< the checkpoint's own format, under the weights box
    QSpinBox* m_groupSize;
    QComboBox* m_kvCache;
    /// What fits is judged against (memory_overheads.h): usable memory with the overheads, or the
    /// datasheet's; the ledger's other settings come from the scenario and are kept as they are.
    QComboBox* m_memoryBasis = nullptr;
    napkin::MemoryOverheadSettings m_overheads;
    LogSliderField* m_context;
    LogSliderField* m_batch;
    QCheckBox* m_promptIsContext;
    LogSliderField* m_prompt;
    QCheckBox* m_priceOn = nullptr; ///< a price per GPU-hour is given (run_cost.h)
    QDoubleSpinBox* m_price = nullptr;
    /// The prompt the user chose: kept while "prompt = context" shows the context in the greyed field.
    double m_ownPrompt = 0;
    std::optional<napkin::CheckpointFormat> m_checkpoint, m_ownCheckpoint;
    bool m_weightsFromCheckpoint = false;
    FieldErrorRow m_fieldError;
};
