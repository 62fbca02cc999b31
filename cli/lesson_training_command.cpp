// SPDX-License-Identifier: GPL-3.0-or-later
// `napkin-cli lesson determinism` and `lesson mixed-precision`: the lesson Cruncher trained under
// chosen seeds, and under the five precision recipes with their underflowed-gradient counts.
#include "cli/lesson_subcommands.h"
#include "cli/number_option.h"
#include "cli/option_policy.h"
#include "engine/lessons/mixed_precision_trainer.h"
#include "engine/numerics/diverged_loss.h"
#include "engine/report/json_values.h"
#include "engine/report/lesson_report.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <sstream>

namespace napkin::cli {
namespace {

struct TrainingOptions {
    bool json = false;
    std::string dim = "16", layers = "3", batch = "32", examples = "256", steps = "300", lr, targetScale;
    std::uint64_t seedInit = 0, seedData = 1, seedTask = 2;
    std::uint64_t seedInitB = 0, seedDataB = 1; // determinism: the second run (defaults: seed-data + 1)
    bool haveInitB = false, haveDataB = false;
    std::string recipes = "fp32,bf16-mixed,bf16-pure,fp16,fp16-scaled";
};

void addModelOptions(CLI::App* cmd, TrainingOptions& o) {
    cmd->add_option("--dim", o.dim, "width D (default 16, at most 512)");
    cmd->add_option("--layers", o.layers, "D×D layers L (default 3, at most 16)");
    cmd->add_option("--batch", o.batch, "batch B (default 32)");
    cmd->add_option("--examples", o.examples, "examples in the fixed dataset N (default 256)");
    cmd->add_option("--steps", o.steps, "SGD steps (default 300)");
    cmd->add_option("--lr", o.lr, "SGD learning rate (default 0.1)");
    cmd->add_option("--target-scale", o.targetScale,
                    "size of the targets (default 1e-3: small residuals, small gradients)");
    addSeedOption(*cmd, "--seed-init", o.seedInit, "seed of the weights (default 0)");
    addSeedOption(*cmd, "--seed-data", o.seedData, "seed of the data order (default 1)");
    addSeedOption(*cmd, "--seed-task", o.seedTask, "seed of the dataset itself (default 2)");
    cmd->add_flag("--json", o.json, "print one JSON document");
}

LessonCruncherConfig configFrom(const TrainingOptions& o) {
    LessonCruncherConfig c;
    c.dim = wholeNumberOption("--dim", o.dim, 1, 512);
    c.layers = wholeNumberOption("--layers", o.layers, 1, 16);
    c.batch = wholeNumberOption("--batch", o.batch, 1, 1024);
    c.examples = wholeNumberOption("--examples", o.examples, 1, 65536);
    c.steps = wholeNumberOption("--steps", o.steps, 1, 100000);
    if (c.examples < c.batch)
        throw UsageError("--examples: " + o.examples + " examples do not fill one batch of " + o.batch);
    if (!o.lr.empty()) {
        c.learningRate = parseNumberOption("--lr", o.lr);
        if (!(c.learningRate > 0) || !(c.learningRate < 1e6))
            throw UsageError("--lr: must be > 0 and < 1e6");
    }
    if (!o.targetScale.empty()) {
        c.targetScale = parseNumberOption("--target-scale", o.targetScale);
        if (!(c.targetScale > 0) || !(c.targetScale < 1e6))
            throw UsageError("--target-scale: must be > 0 and < 1e6");
    }
    c.seedInit = o.seedInit;
    c.seedData = o.seedData;
    c.seedTask = o.seedTask;
    return c;
}

// A run whose loss stopped being a number reports nothing: its losses would print as null.
void refuseDiverged(const LessonTrainingRun& run, const LessonCruncherConfig& c, const std::string& which) {
    if (std::string why = firstDivergedLossReason(run.losses, 1, c.learningRate); !why.empty())
        throw UsageError("--lr: " + which + why);
}

int runDeterminism(const TrainingOptions& o, std::ostream& out) {
    const LessonCruncherConfig a = configFrom(o);
    LessonCruncherConfig b = a;
    b.seedInit = o.haveInitB ? o.seedInitB : a.seedInit;
    b.seedData = o.haveDataB ? o.seedDataB : a.seedData + 1;
    const LessonTrainingRun runA = trainPrecisionLesson(a, PrecisionLesson::fp32);
    const LessonTrainingRun again = trainPrecisionLesson(a, PrecisionLesson::fp32);
    const LessonTrainingRun runB = trainPrecisionLesson(b, PrecisionLesson::fp32);
    refuseDiverged(runA, a, "run a: ");
    refuseDiverged(runB, b, "run b: ");
    if (o.json) {
        out << jsonText(determinismJson(a, runA, again, b, runB));
        return 0;
    }
    const bool repeatIdentical = bitIdentical(runA.losses, again.losses);
    const bool bIdentical = bitIdentical(runA.losses, runB.losses);
    out << "run a twice: " << (repeatIdentical ? "bit-identical losses" : "losses DIFFER")
        << "; run b (seed-init " << b.seedInit << ", seed-data " << b.seedData
        << "): " << (bIdentical ? "identical" : "different") << " losses\n";
    return 0;
}

std::vector<PrecisionLesson> recipesFrom(const std::string& list) {
    std::vector<PrecisionLesson> recipes;
    std::stringstream in(list);
    std::string key;
    while (std::getline(in, key, ',')) {
        const std::optional<PrecisionLesson> recipe = precisionLessonFromKey(key);
        if (!recipe)
            throw UsageError("--recipes: unknown '" + key + "' (" + precisionLessonKeys() + ")");
        recipes.push_back(*recipe);
    }
    if (recipes.empty())
        throw UsageError("--recipes: give at least one recipe");
    return recipes;
}

int runMixedPrecision(const TrainingOptions& o, std::ostream& out) {
    const LessonCruncherConfig c = configFrom(o);
    const std::vector<PrecisionLesson> recipes = recipesFrom(o.recipes);
    std::vector<LessonTrainingRun> runs;
    for (PrecisionLesson r : recipes)
        refuseDiverged(runs.emplace_back(trainPrecisionLesson(c, r)), c,
                       std::string(precisionLessonName(r)) + ": ");
    if (o.json) {
        out << jsonText(mixedPrecisionJson(c, runs));
        return 0;
    }
    for (std::size_t i = 0; i < runs.size(); ++i)
        out << precisionLessonName(recipes[i]) << ": loss " << runs[i].losses.front() << " -> "
            << runs[i].losses.back() << ", " << runs[i].underflowTotal << " underflowed gradient values, "
            << runs[i].skippedSteps << " skipped steps\n";
    return 0;
}

} // namespace

Command addLessonDeterminismCommand(CLI::App& lesson) {
    auto o = std::make_shared<TrainingOptions>();
    CLI::App* cmd =
        lesson.add_subcommand("determinism", "Train twice with the same seeds, once with other seeds");
    addModelOptions(cmd, *o);
    addSeedOption(*cmd, "--b-seed-init", o->seedInitB, "run b's weight seed (default: run a's)")
        ->each([o](const std::string&) { o->haveInitB = true; });
    addSeedOption(*cmd, "--b-seed-data", o->seedDataB, "run b's data-order seed (default: run a's + 1)")
        ->each([o](const std::string&) { o->haveDataB = true; });
    return {cmd, [o](std::ostream& out, std::ostream&) { return runDeterminism(*o, out); }};
}

Command addLessonMixedPrecisionCommand(CLI::App& lesson) {
    auto o = std::make_shared<TrainingOptions>();
    CLI::App* cmd =
        lesson.add_subcommand("mixed-precision", "Train the same Cruncher under five precision recipes");
    addModelOptions(cmd, *o);
    cmd->add_option("--recipes", o->recipes,
                    "comma-separated: fp32, bf16-mixed, bf16-pure, fp16, fp16-scaled (default all)");
    return {cmd, [o](std::ostream& out, std::ostream&) { return runMixedPrecision(*o, out); }};
}

} // namespace napkin::cli
