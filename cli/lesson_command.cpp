// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/lesson_command.h"

#include "cli/lesson_subcommands.h"
#include "cli/number_option.h"
#include "cli/option_policy.h"
#include "engine/lessons/init_std_experiment.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/lesson_report.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <memory>
#include <ostream>
#include <vector>

namespace napkin::cli {
namespace {

struct InitOptions {
    bool json = false;
    std::string dim = "256", layers = "10", batch = "16";
    std::uint64_t seed = 0;
};

int runInit(const InitOptions& o, std::ostream& out) {
    InitStdConfig c;
    c.dim = wholeNumberOption("--dim", o.dim, 1, 4096);
    c.layers = wholeNumberOption("--layers", o.layers, 1, 128);
    c.batch = wholeNumberOption("--batch", o.batch, 1, 4096);
    c.seed = o.seed;
    const InitStdResult r = runInitStdExperiment(c);
    if (o.json) {
        out << jsonText(initStdJson(c, r));
        return 0;
    }
    for (const InitStdCurve& curve : r.curves)
        out << initSchemeName(curve.scheme) << ": std " << curve.stdPerLayer.front() << " -> "
            << curve.stdPerLayer.back() << " after " << c.layers << " layers (theory: x"
            << curve.predictedGrowthPerLayer << " per layer)\n";
    return 0;
}

} // namespace

long wholeNumberOption(const std::string& option, const std::string& text, double lo, double hi) {
    const double v = parseNumberOption(option, text);
    if (!(v >= lo) || v != std::floor(v) || v > hi)
        throw UsageError(option + ": '" + text + "' is not a whole number between " + formatNumber(lo) +
                         " and " + formatNumber(hi));
    return static_cast<long>(v);
}

Command addLessonInitCommand(CLI::App& lesson) {
    auto o = std::make_shared<InitOptions>();
    CLI::App* cmd = lesson.add_subcommand(
        "init", "Activation std per layer for N(0,1), N(0,1)/sqrt(D) and truncated weights");
    cmd->add_option("--dim", o->dim, "width D (default 256, at most 4096)");
    cmd->add_option("--layers", o->layers, "layers L (default 10, at most 128)");
    cmd->add_option("--batch", o->batch, "rows of the random input (default 16)");
    addSeedOption(*cmd, "--seed", o->seed, "seed of the input and the weights (default 0)");
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o](std::ostream& out, std::ostream&) { return runInit(*o, out); }};
}

Command addLessonCommand(CLI::App& parent) {
    CLI::App* lesson =
        parent.add_subcommand("lesson", "The lecture's training-loop lessons, computed for real");
    lesson->require_subcommand(1);
    auto subcommands = std::make_shared<std::vector<Command>>();
    subcommands->push_back(addLessonInitCommand(*lesson));
    subcommands->push_back(addLessonDataCommand(*lesson));
    subcommands->push_back(addLessonDeterminismCommand(*lesson));
    subcommands->push_back(addLessonMixedPrecisionCommand(*lesson));
    return {lesson, [subcommands](std::ostream& out, std::ostream& err) {
                for (const Command& c : *subcommands)
                    if (c.app->parsed())
                        return c.execute(out, err);
                return 2;
            }};
}

} // namespace napkin::cli
