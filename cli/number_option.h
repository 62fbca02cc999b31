// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Command-line numbers ("70e9", "15T", "1.5B") with errors that name the option.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace napkin::cli {

/// Thrown for a bad argument; run() turns it into one line on stderr and exit status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses `text` given to `option` (e.g. "--params"); throws UsageError naming the option.
double parseNumberOption(const std::string& option, const std::string& text);
/// As above, for an option that may be absent (empty text).
std::optional<double> parseOptionalNumberOption(const std::string& option, const std::string& text);
/// Bytes of each bandwidth array ("64M", "1G"; engine/compute/memory_bandwidth.h's rules); 0 for empty text
/// (the default size). Throws UsageError naming `option`.
std::uint64_t parseBytesPerArrayOption(const std::string& option, const std::string& text);

} // namespace napkin::cli
