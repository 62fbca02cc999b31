// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli compare`: a measured run (torch.profiler Chrome trace or CUDA memory snapshot) beside the
// prediction for the same setup flags as `account`.
#include "cli/command.h"

namespace napkin::cli {

Command addCompareCommand(CLI::App& parent);

} // namespace napkin::cli
