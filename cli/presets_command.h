// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli presets`: the names --preset (a whole setup) and --model-preset (a published model) take.
#include "cli/command.h"

namespace napkin::cli {

Command addPresetsCommand(CLI::App& parent);

} // namespace napkin::cli
