// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The preset vocabulary as JSON: the whole setups `--preset` takes and the published models
// `--model-preset` takes.
#include <nlohmann/json.hpp>

namespace napkin {

/// {"presets": [{id, name, expectation, model, command}], "model_presets": [{id, name, source}]}: the
/// published models, then the shipped config.json files (source: their path under resources/).
nlohmann::json presetsToJson();

} // namespace napkin
