// SPDX-License-Identifier: GPL-3.0-or-later
// `napkin-cli tensor --shape S --dtype D EXPR --json` for many chains in one process, for the property test
// against PyTorch (tensor_torch_property.py), which sends thousands: starting a process per chain would
// cost more than the checking. Reads lines "S<TAB>D<TAB>EXPR" on stdin and writes one line per chain,
//   {"exit": status, "stderr": "...", "document": the JSON document, or null when stdout was empty}
// through the real command (cli_app.h), so what is checked is napkin-cli's own contract.
#include "cli/cli_app.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>
#include <string>

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        const std::size_t tab = line.find('\t');
        const std::size_t tab2 = tab == std::string::npos ? tab : line.find('\t', tab + 1);
        if (tab2 == std::string::npos) {
            std::cerr << "tensor_chain_runner: expected 'shape<TAB>dtype<TAB>expression', got '" << line
                      << "'\n";
            return 2;
        }
        std::ostringstream out;
        std::ostringstream err;
        const int status =
            napkin::cli::run({"tensor", "--shape", line.substr(0, tab), "--dtype",
                              line.substr(tab + 1, tab2 - tab - 1), line.substr(tab2 + 1), "--json"},
                             out, err);
        nlohmann::json result;
        result["exit"] = status;
        result["stderr"] = err.str();
        result["document"] = out.str().empty() ? nlohmann::json() : nlohmann::json::parse(out.str());
        std::cout << result.dump() << '\n';
    }
    return 0;
}
