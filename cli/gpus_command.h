// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli gpus`: the GPU catalog's parts, and with --this-machine the CUDA devices here matched to it.
#include "cli/command.h"

namespace napkin::cli {

Command addGpusCommand(CLI::App& parent);

} // namespace napkin::cli
