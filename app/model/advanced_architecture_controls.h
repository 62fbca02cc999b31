// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What today's families add to a transformer, as controls under a collapsed "Advanced architecture"
// toggle (the Architecture group's last row): head width, QK-norm, sliding window and its per-layer
// pattern, per-projection biases, norm placement, multi-head latent attention (MLA), and the mixture of
// experts' refinements. Each control's tooltip says what it is and which config.json key sets it. The
// toggle says how many knobs are away from their defaults, so a loaded config shows that it set some.
#include "engine/models/model_spec.h"
#include "engine/numerics/control_range.h"

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QSpinBox;
class QToolButton;

class AdvancedArchitectureControls : public QWidget {
    Q_OBJECT
public:
    explicit AdvancedArchitectureControls(QWidget* parent = nullptr);

    /// Writes the knobs into `model`; every other field is left alone.
    void writeTo(napkin::ModelSpec& model) const;
    /// Shows the knobs of `model` without emitting changed().
    void setModel(const napkin::ModelSpec& model);
    /// Greys the expert refinements while the model has one MLP (each keeps a value it holds, so that a
    /// refused combination can be undone).
    void setMixtureOfExperts(bool moe);
    /// The control a validation field names ("head-dim", "kv-lora-rank", "windowed-layers", ...).
    QWidget* controlFor(const std::string& field) const;
    /// How many knobs differ from a GPT-2 default (what the toggle says).
    int knobsSet() const;

    bool isExpanded() const;
    void setExpanded(bool expanded);

    QToolButton* toggleButton() const { return m_toggle; }
    QWidget* body() const { return m_body; }
    QSpinBox* headDimBox() const { return m_headDim; }
    QComboBox* qkNormBox() const { return m_qkNorm; }
    QSpinBox* slidingWindowBox() const { return m_slidingWindow; }
    QSpinBox* globalEveryBox() const { return m_globalEvery; }
    QCheckBox* layerPatternCheck() const { return m_pattern; }
    QComboBox* qkvBiasBox() const { return m_qkvBias; }
    QComboBox* outBiasBox() const { return m_outBias; }
    QComboBox* mlpBiasBox() const { return m_mlpBias; }
    QComboBox* normBiasBox() const { return m_normBias; }
    QComboBox* normPlacementBox() const { return m_normPlacement; }
    QSpinBox* qLoraRankBox() const { return m_qLoraRank; }
    QSpinBox* kvLoraRankBox() const { return m_kvLoraRank; }
    QSpinBox* qkNopeHeadDimBox() const { return m_qkNope; }
    QSpinBox* qkRopeHeadDimBox() const { return m_qkRope; }
    QSpinBox* vHeadDimBox() const { return m_vHead; }
    QSpinBox* expertFfnDimBox() const { return m_expertFfn; }
    QSpinBox* sharedFfnDimBox() const { return m_sharedFfn; }
    QCheckBox* sharedExpertGateCheck() const { return m_sharedGate; }
    QSpinBox* denseLayersBox() const { return m_denseLayers; }
    QCheckBox* routerBiasCheck() const { return m_routerBias; }
    QCheckBox* attentionSinksCheck() const { return m_attentionSinks; }

signals:
    /// The user changed a knob.
    void changed();

private:
    QSpinBox* makeSpin(napkin::ControlRange range, const QString& none, const QString& tip);
    QComboBox* makeBiasBox(const QString& tip);
    void onEdited();
    void updateApplicability();
    void updateToggleText();

    QToolButton* m_toggle;
    QWidget* m_body;
    QFormLayout* m_form;
    QSpinBox *m_headDim, *m_slidingWindow, *m_globalEvery;
    QSpinBox *m_qLoraRank, *m_kvLoraRank, *m_qkNope, *m_qkRope, *m_vHead;
    QSpinBox *m_expertFfn, *m_sharedFfn, *m_denseLayers;
    QComboBox *m_qkNorm, *m_normPlacement, *m_qkvBias, *m_outBias, *m_mlpBias, *m_normBias;
    QCheckBox *m_pattern, *m_sharedGate, *m_routerBias, *m_attentionSinks;
    /// The per-layer window pattern a config gave (true: windowed), kept while the box is unticked.
    std::vector<bool> m_windowedLayers;
    bool m_moe = false;
    bool m_updating = false;
};
