#pragma once
// The lecture's questions and today's models as ready-made scenarios: the engine's setup presets
// (engine/accounting/setup_presets.h, the same table napkin-cli's --preset reads), in Qt's strings.
#include "engine/accounting/accounting.h"
#include "engine/scenario/scenario.h"

#include <QString>

#include <vector>

struct Preset {
    QString id;          ///< for the command line: "70b-15t-1024-h100"
    QString name;        ///< shown in the preset box
    QString expectation; ///< what the lecture says the answer is
    napkin::AccountingInput input;
};

/// All built-in presets, in the order they are offered.
const std::vector<Preset>& builtInPresets();
/// By id or by name, case-insensitively; nullptr when unknown.
const Preset* findPreset(const QString& idOrName);
/// "70b-15t-1024-h100, largest-8-h100, ..." for error messages.
QString presetIdList();

/// The accounting page's fields after `input` is entered as the page enters it (a preset, the tour):
/// its model kind with that kind's sizes, every training and hardware setting, the tokens; the sizes
/// of the other kinds keep the values they had, so switching kind back restores them.
napkin::AccountingScenario withInput(napkin::AccountingScenario fields, const napkin::AccountingInput& input);
/// As withInput, and the preset box showing `preset`.
napkin::AccountingScenario withPreset(const napkin::AccountingScenario& fields, const Preset& preset);
