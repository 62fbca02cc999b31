// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/cli_app.h"

#include <iostream>

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return napkin::cli::run(args, std::cout, std::cerr);
}
