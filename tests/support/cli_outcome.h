// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// napkin-cli's run() as a function for tests: its exit status, stdout and stderr.
#include "cli/cli_app.h"

#include <sstream>
#include <string>
#include <vector>

namespace napkin::test {

struct CliOutcome {
    int status;
    std::string out, err;
};

inline CliOutcome runCli(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int status = napkin::cli::run(args, out, err);
    return {status, out.str(), err.str()};
}

} // namespace napkin::test
