// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A napkin-cli subcommand: its CLI11 node and what to do once it has been parsed.
#include <functional>
#include <iosfwd>

namespace CLI {
class App;
}

namespace napkin::cli {

struct Command {
    CLI::App* app = nullptr; ///< owned by the parent CLI::App; parsed() says whether it was chosen
    std::function<int(std::ostream& out, std::ostream& err)> execute;
};

} // namespace napkin::cli
