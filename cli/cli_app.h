// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// napkin-cli as a testable function: arguments in, exit status out, text to the given streams.
#include <iosfwd>
#include <string>
#include <vector>

namespace napkin::cli {

/// Exit statuses: 0 success, 2 bad arguments or an unavailable device, 1 an internal failure.
constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;

/// Runs napkin-cli with `args` (without the program name). Text that is not valid UTF-8 (a typed
/// expression, say) is echoed in JSON with U+FFFD replacement characters rather than failing. With --json,
/// `out` receives exactly one JSON document; on bad arguments `err` receives one line naming the argument and
/// `out` nothing.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// As run(), up to and including the option checks that need no work done (parsing, blank values,
/// integer ranges), then stops: kExitOk when the command would run. For the fuzzer over `bench`, whose
/// commands run for seconds by design.
int parseOnly(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace napkin::cli
