// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Why an accounting input was refused, named by the field a user typed it in.
#include <string>

namespace napkin {

/// A rejected input: `field` names the input ("mfu", "dim", "tp", ...), `message` says why.
struct InputError {
    std::string field;
    std::string message;
    bool ok() const { return field.empty(); }
};

} // namespace napkin
