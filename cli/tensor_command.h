// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli tensor`: shapes, strides, storage offsets and copies of a chain of PyTorch view ops.
#include "cli/command.h"

namespace napkin::cli {

Command addTensorCommand(CLI::App& parent);

} // namespace napkin::cli
