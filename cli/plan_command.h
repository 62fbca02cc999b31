// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli plan`: the fastest layout that fits, searched over the layouts Napkin models
// (engine/planning/layout_search.h).
#include "cli/command.h"

namespace napkin::cli {

Command addPlanCommand(CLI::App& parent);

} // namespace napkin::cli
