// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lecture's questions and today's models as ready-made scenarios: the engine's setup presets
// (engine/accounting/setup_presets.h, the same table napkin-cli's --preset reads), in Qt's strings, and
// the shipped config.json files (engine/models/model_zoo.h, --model-preset), which set the model only.
#include "engine/accounting/accounting.h"
#include "engine/scenario/scenario.h"

#include <QString>

class QComboBox;

#include <vector>

struct Preset {
    QString id;          ///< for the command line: "70b-15t-1024-h100"
    QString name;        ///< shown in the preset box
    QString expectation; ///< what the lecture says the answer is
    napkin::AccountingInput input;
    /// A shipped config.json: applying it sets the transformer and keeps the training and hardware.
    bool modelOnly = false;
};

/// The whole setups (napkin-cli account --preset), in the engine's order.
const std::vector<Preset>& builtInPresets();
/// The shipped config.json files, each its model on a fresh page's training and hardware.
const std::vector<Preset>& modelPresets();
/// A setup or a shipped config, by id or by name, case-insensitively; nullptr when unknown.
const Preset* findPreset(const QString& idOrName);
/// "70b-15t-1024-h100, largest-8-h100, ..., deepseek-v3" for error messages.
QString presetIdList();
/// Fills `box` with every preset grouped by family (preset_groups.h) under headers, each entry's data its
/// id and its tooltip what it gives; the first item (a prompt, no data) is the caller's.
void addPresetEntries(QComboBox* box);

/// As withInput (withModel for a model-only preset; engine/scenario/accounting_fields.h), and the preset box
/// showing `preset`.
napkin::AccountingScenario withPreset(const napkin::AccountingScenario& fields, const Preset& preset);
