// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The zoo: the config.json of well-known open models, shipped under resources/models/ and compiled in,
// each readable as a model (hf_config.h). Facts only: sizes and switches, no weights.
#include "engine/models/hf_config.h"

#include <span>
#include <string>
#include <string_view>

namespace napkin {

struct ZooModel {
    std::string_view id;         ///< "mistral-7b-v0.1": the file resources/models/<id>.json
    std::string_view family;     ///< "Mistral / Mixtral": its group in a preset box (preset_groups.h)
    std::string_view name;       ///< "Mistral 7B v0.1"
    double publishedParameters;  ///< the exact count its checkpoint has (tests cite the derivation)
    std::string_view configJson; ///< the shipped config.json text
};

/// Every shipped model, grouped by family.
std::span<const ZooModel> zooModels();
/// By id, case-insensitively; nullptr when unknown.
const ZooModel* findZooModel(std::string_view id);
/// "gpt2, gpt-neox-20b, ..." for help texts and error messages.
std::string zooModelIds();
/// The zoo model's config read as a model (never fails for a shipped config; tests hold it so), parsed
/// once per process and kept: the reference stays valid for the program's life.
const HfConfigResult& zooModelConfig(const ZooModel& model);

} // namespace napkin
