// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli account`: the accounting model on the command line.
#include "cli/command.h"

namespace napkin::cli {

Command addAccountCommand(CLI::App& parent);

} // namespace napkin::cli
