// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The transformer's architecture options as controls (the Architecture group of the Accounting and
// Inference pages): a family preset, kv-heads, FFN width, MLP, norm, biases, embeddings, positions,
// experts and top-k, dropout and the attention kernel, then today's knobs under a collapsed "Advanced
// architecture" toggle (advanced_architecture_controls.h). Tooltips name the config.json key of each.
#include "engine/models/model_spec.h"

#include <QGroupBox>

#include <string>

class AdvancedArchitectureControls;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QSpinBox;

class ArchitectureControls : public QGroupBox {
    Q_OBJECT
public:
    explicit ArchitectureControls(QWidget* parent = nullptr);

    /// Writes the options (the advanced ones too) into `model`; its sizes (d, L, heads, vocab, seq, FFN
    /// multiple) are left alone.
    void writeTo(napkin::ModelSpec& model) const;
    /// Shows the options of `model` without emitting changed().
    void setModel(const napkin::ModelSpec& model);
    /// Disables the controls that do not apply to `kind` (all but a transformer's) or to the current
    /// options (top-k without experts), each with a tooltip saying why.
    void setModelKind(napkin::ModelKind kind);
    /// The control a validation field names ("kv-heads", "top-k", "head-dim", ...), or nullptr.
    QWidget* controlFor(const std::string& field) const;
    /// Opens the advanced section when `control` is in it, so that a message under it can be seen.
    void reveal(const QWidget* control);
    /// Hides the rows that only training uses (dropout, the attention kernel): the Inference page's.
    void hideTrainingRows();

    QComboBox* familyBox() const { return m_family; }
    QSpinBox* kvHeadsBox() const { return m_kvHeads; }
    QSpinBox* ffnDimBox() const { return m_ffnDim; }
    QComboBox* mlpBox() const { return m_mlp; }
    QComboBox* normBox() const { return m_norm; }
    QCheckBox* biasCheck() const { return m_bias; }
    QComboBox* embeddingsBox() const { return m_embeddings; }
    QComboBox* positionBox() const { return m_position; }
    QSpinBox* expertsBox() const { return m_experts; }
    QSpinBox* topKBox() const { return m_topK; }
    QCheckBox* dropoutCheck() const { return m_dropout; }
    QComboBox* attentionImplBox() const { return m_attentionImpl; }
    AdvancedArchitectureControls* advanced() const { return m_advanced; }

signals:
    /// The user changed an option (or picked a family, which changes several).
    void changed();

private:
    void onFamilyChosen(int index);
    void onEdited();
    void updateApplicability();
    void showFamily(const napkin::ModelSpec& model);

    QFormLayout* m_form;
    QComboBox* m_family;
    QSpinBox *m_kvHeads, *m_ffnDim, *m_experts, *m_topK;
    QComboBox *m_mlp, *m_norm, *m_embeddings, *m_position, *m_attentionImpl;
    QCheckBox *m_bias, *m_dropout;
    AdvancedArchitectureControls* m_advanced;
    QString m_topKTip;
    napkin::ModelKind m_kind = napkin::ModelKind::transformer;
    bool m_updating = false;
};
