// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli bench reserved`: how long the caching-allocator simulation of a predicted step takes
// (engine/allocator/step_reserved.h), the whole of it and the replay alone.
#include "cli/command.h"

namespace napkin::cli {

/// Adds `reserved` under `bench`; the returned Command runs it when it was chosen.
Command addBenchReservedCommand(CLI::App& bench);

} // namespace napkin::cli
