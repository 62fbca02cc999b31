// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli roofline`: a device's roofline (peak FLOP/s, memory bandwidth, ridge point), from a GPU's
// datasheet (--gpu) or measured on this CPU (--device cpu).
#include "cli/command.h"

namespace napkin::cli {

Command addRooflineCommand(CLI::App& parent);

} // namespace napkin::cli
