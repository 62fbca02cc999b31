// SPDX-License-Identifier: GPL-3.0-or-later
// Property: napkin-cli never crashes on any argument list; it exits 0 with output, or 2 with one line
// on stderr and nothing on stdout. Arguments are the input split at '\n'. Every subcommand is covered:
// `bench` and `calibrate` through parseOnly (their option checks, without the seconds-long run), as is a
// line that writes a file (--save-scenario); the others run whole.
#include "cli/cli_app.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args;
    std::string current;
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') {
            args.push_back(current);
            current.clear();
        } else {
            current.push_back(static_cast<char>(data[i]));
        }
    }
    args.push_back(current);
    std::ostringstream out, err;
    // Benchmarks (and calibrate, which runs them and writes a file) take seconds by design: their
    // arguments are checked, the run is not started. A line that would write a file the fuzzer names
    // (account's --save-scenario) is checked the same way, so that no run writes where the input says.
    const bool writes = std::any_of(args.begin(), args.end(), [](const std::string& a) {
        return a.find("--save-scenario") != std::string::npos;
    });
    const bool bench = writes || std::find(args.begin(), args.end(), "bench") != args.end() ||
                       std::find(args.begin(), args.end(), "calibrate") != args.end();
    const int status = bench ? napkin::cli::parseOnly(args, out, err) : napkin::cli::run(args, out, err);
    if (status == napkin::cli::kExitUsage) {
        const std::string e = err.str();
        if (!out.str().empty() || e.empty() || std::count(e.begin(), e.end(), '\n') != 1)
            std::abort();
    } else if (status != napkin::cli::kExitOk) {
        std::abort(); // kExitFailure means an internal error escaped as an exception
    }
    return 0;
}
