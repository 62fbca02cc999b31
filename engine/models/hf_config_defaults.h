// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a key absent from a config.json means: the value the family's configuration class in transformers
// gives it (Google's Gemma 3 files, for one, leave out every key equal to Gemma3TextConfig's default).
// Each family's table lists only the keys Napkin reads, each with the class's default; docs/cli.md cites
// the file and commit each table was read from.
#include <nlohmann/json_fwd.hpp>

#include <string_view>

namespace napkin {

/// The defaults of `family`'s configuration class (a JSON object), or nullptr where Napkin has none
/// (falcon reads its own defaults, see hf_config_families.cpp).
const nlohmann::json* hfConfigClassDefaults(std::string_view family);

/// "transformers LlamaConfig (models/llama/configuration_llama.py, commit 008e574)"; empty when none.
std::string_view hfConfigClassSource(std::string_view family);

} // namespace napkin
