// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Each supported model_type's keys mapped onto ModelSpec: what the family's modeling code builds
// (transformers' modeling_<type>.py), so that the parameter count is the checkpoint's.
#include "engine/models/hf_config_keys.h"
#include "engine/models/model_spec.h"

#include <string_view>

namespace napkin {

/// Fills `model` from `keys` for `modelType` (one of hfModelTypes()); false for an unknown type.
/// Throws HfConfigKeyError for a missing required key or a wrong type.
bool readHfFamily(std::string_view modelType, HfConfigKeys& keys, ModelSpec& model);

} // namespace napkin
