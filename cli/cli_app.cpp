// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/cli_app.h"

#include "cli/account_command.h"
#include "cli/bench_command.h"
#include "cli/calibrate_command.h"
#include "cli/compare_command.h"
#include "cli/drill_command.h"
#include "cli/dtype_command.h"
#include "cli/gpus_command.h"
#include "cli/infer_command.h"
#include "cli/lesson_command.h"
#include "cli/man_page.h"
#include "cli/number_option.h"
#include "cli/option_policy.h"
#include "cli/plan_command.h"
#include "cli/presets_command.h"
#include "cli/roofline_command.h"
#include "cli/tensor_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <ostream>
#include <string>

namespace napkin::cli {
namespace {

constexpr const char* kVersion = "napkin-cli 0.1.0";

// One line: CLI11 messages can span lines, and the contract is a single line on stderr.
std::string oneLine(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    return text;
}

// Parses and checks `args`, then runs the chosen command unless `execute` is false.
int parseAndRun(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool execute) {
    CLI::App app{"napkin-cli: deep-learning resource accounting on the command line", "napkin-cli"};
    app.require_subcommand(1);
    app.set_version_flag("--version", kVersion);

    std::vector<Command> commands;
    commands.push_back(addAccountCommand(app));
    commands.push_back(addBenchCommand(app));
    commands.push_back(addCalibrateCommand(app));
    commands.push_back(addDtypeCommand(app));
    commands.push_back(addGpusCommand(app));
    commands.push_back(addInferCommand(app));
    commands.push_back(addPlanCommand(app));
    commands.push_back(addPresetsCommand(app));
    commands.push_back(addTensorCommand(app));
    commands.push_back(addLessonCommand(app));
    commands.push_back(addRooflineCommand(app));
    commands.push_back(addCompareCommand(app));
    commands.push_back(addDrillCommand(app));

    // The manual page is written from this registration, before parsing (it is no command of its own).
    if (args.size() == 1 && args.front() == "--man-page") {
        if (execute)
            out << manPage(app, kVersion);
        return kExitOk;
    }

    std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 consumes from the back
    try {
        app.parse(reversed);
        refuseBlankValues(app);
    } catch (const UsageError& e) { // from refuseBlankValues or an option's own parser (a seed)
        err << "napkin-cli: " << oneLine(e.what()) << '\n';
        return kExitUsage;
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return kExitOk;
    } catch (const CLI::CallForAllHelp&) {
        out << app.help("", CLI::AppFormatMode::All);
        return kExitOk;
    } catch (const CLI::CallForVersion&) {
        out << kVersion << '\n';
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        // A validator (a list of names, a range) meets an empty value before refuseBlankValues does;
        // the refusal reads the same as every other option's.
        std::string message = e.what();
        try {
            refuseBlankValues(app);
        } catch (const UsageError& blank) {
            message = blank.what();
        }
        err << "napkin-cli: " << oneLine(message) << '\n';
        return kExitUsage;
    }

    for (const Command& command : commands) {
        if (!command.app->parsed())
            continue;
        if (!execute)
            return kExitOk;
        try {
            return command.execute(out, err);
        } catch (const UsageError& e) {
            err << "napkin-cli: " << oneLine(e.what()) << '\n';
            return kExitUsage;
        } catch (const std::exception& e) {
            err << "napkin-cli: internal error: " << oneLine(e.what()) << '\n';
            return kExitFailure;
        }
    }
    err << "napkin-cli: no command given; try --help\n";
    return kExitUsage;
}

} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    return parseAndRun(args, out, err, true);
}

int parseOnly(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    return parseAndRun(args, out, err, false);
}

} // namespace napkin::cli
