// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli bench memory`: memory bandwidth, a STREAM-style triad on the CPU or device-to-device copies
// on a CUDA GPU.
#include "cli/command.h"

namespace napkin::cli {

/// Adds `memory` under `bench`; the returned Command runs it when it was chosen.
Command addBenchMemoryCommand(CLI::App& bench);

} // namespace napkin::cli
