// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli bench train`: the lecture's Cruncher trained on a backend — step time, FLOP/s, MFU, the
// loss curve, and the memory it really allocated next to the napkin prediction.
#include "cli/command.h"

namespace napkin::cli {

/// Adds `train` under `bench`; the returned Command runs it when it was chosen.
Command addBenchTrainCommand(CLI::App& bench);

} // namespace napkin::cli
