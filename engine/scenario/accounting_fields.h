// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Accounting page's fields (an AccountingScenario) after a whole setup or a model is entered: what a
// preset, the tour, a config.json and "Use the run's setup" do in the app, and what `napkin-cli account
// --save-scenario FILE` writes (scripts/measure-run.py puts it in its trace), so that the app opens a run
// with the setup it was made with instead of twelve controls set by hand. Written once for both.
#include "engine/accounting/accounting.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/scenario/scenario.h"

namespace napkin {

/// The page's fields after `input` is entered as the page enters it (a preset, the tour): its model kind
/// with that kind's sizes, every training and hardware setting, the tokens; the sizes of the other kinds
/// keep the values they had, so switching kind back restores them.
AccountingScenario withInput(AccountingScenario fields, const AccountingInput& input);

/// The page's fields with `transformer` as the model (kind transformer and every transformer field); the
/// training, hardware and the other kinds' sizes stay. A shipped or opened config.json enters this way.
AccountingScenario withModel(AccountingScenario fields, const ModelSpec& transformer);

/// A fresh window with the Accounting page in front holding `input` (withInput over a fresh page); the
/// preset box names the setup preset `input` is exactly (setup_presets.h), else none; `catalog`'s part
/// is carried under "gpus" when the built-in catalog does not have it.
Scenario runSetupScenario(const AccountingInput& input, const GpuCatalog& catalog);

} // namespace napkin
