// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli lesson init|data|determinism|mixed-precision`: the training-loop lessons, computed.
#include "cli/command.h"

namespace napkin::cli {

Command addLessonCommand(CLI::App& parent);

} // namespace napkin::cli
