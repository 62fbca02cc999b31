// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether a file can be written at a path, asked before the work whose result it will hold: a training
// run's checkpoint target is checked before the first step, not after the last.
#include <string>

namespace napkin {

/// Empty when `path` names a file that can be created or replaced (its folder exists and is writable,
/// and `path` is not itself a folder); otherwise why not, naming the path.
std::string unwritableTargetReason(const std::string& path);

} // namespace napkin
