// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How ZeRO and FSDP lay out the sharded model states, as controls (the "ZeRO / FSDP layout" group of the
// accounting page): DeepSpeed's two gradient copies, ZeRO-3's gathered layers and HSDP's shard group.
#include "engine/accounting/sharding_options.h"

#include <QGroupBox>

#include <string>

class QCheckBox;
class QComboBox;
class QSpinBox;

class ShardingControls : public QGroupBox {
    Q_OBJECT
public:
    explicit ShardingControls(QWidget* parent = nullptr);

    napkin::ShardingOptions options() const;
    /// Shows `options` without emitting changed().
    void setOptions(const napkin::ShardingOptions& options);
    /// Enables what applies at ZeRO stage `zeroStage` (disabled controls say why).
    void setZeroStage(int zeroStage);
    /// The control a validation field names ("two-gradient-copies", "shard-group", ...), or nullptr.
    QWidget* controlFor(const std::string& field) const;

    QCheckBox* twoGradientCopiesCheck() const { return m_twoCopies; }
    QComboBox* gatheredBox() const { return m_gathered; }
    QSpinBox* shardGroupBox() const { return m_shardGroup; }

signals:
    void changed();

private:
    void onEdited();
    void updateApplicability();

    QCheckBox *m_twoCopies, *m_fp32Reduce;
    QComboBox* m_gathered;
    QSpinBox *m_prefetch, *m_shardGroup;
    int m_zeroStage = 0;
    bool m_updating = false;
};
