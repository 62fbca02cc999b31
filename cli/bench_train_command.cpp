// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_train_command.h"

#include "cli/device_option.h"
#include "cli/enum_option.h"
#include "cli/number_option.h"
#include "cli/option_policy.h"
#include "cli/step_time_option.h"
#include "engine/accounting/frozen_layers.h"
#include "engine/benchmarks/cruncher_step_time.h"
#include "engine/benchmarks/training_recipes.h"
#include "engine/benchmarks/training_run.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/training_report.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <vector>

namespace napkin::cli {
namespace {

struct TrainOptions {
    bool json = false;
    std::string device = "cpu", dim, layers, batch, steps = "10", optimizer = "adagrad", precision = "fp32",
                lr;
    std::uint64_t seedInit = 0, seedData = 1;
    int threads = 0;
    std::string save, resume, backend, freeze, hardwareProfile;
};

// --hardware-profile's file, read and checked against the run's device before anything runs; unset
// without the option (the device's published profile, if any, is taken after the run: predictRunStep).
std::optional<HardwareProfile> chosenProfile(const TrainOptions& o, const DeviceInfo& device) {
    if (o.hardwareProfile.empty())
        return std::nullopt;
    HardwareProfile profile = readHardwareProfileOption(o.hardwareProfile);
    if (const std::string mismatch = cruncherProfileMismatch(profile, device); !mismatch.empty())
        throw UsageError("--hardware-profile: " + mismatch);
    return profile;
}

long wholeOption(const std::string& option, const std::string& text, double max) {
    if (text.empty())
        throw UsageError(option + " is required");
    const double v = parseNumberOption(option, text);
    if (!(v >= 1) || v != std::floor(v) || v > max)
        throw UsageError(option + ": '" + text + "' is not a whole number between 1 and " +
                         formatNumber(max));
    return static_cast<long>(v);
}

// --precision: one recipe, or a comma list of them (bench train --precision fp32,mixed-bf16).
std::vector<std::string> recipesFrom(const TrainOptions& o) {
    try {
        return trainingRecipesFromList(o.precision);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

// A run that could not start or stopped, as the option that caused it.
[[noreturn]] void refused(const TrainingRunRefused& e, const TrainOptions& o) {
    switch (e.cause()) {
    case TrainingRunRefused::Cause::resume:
        throw UsageError(std::string("--resume: ") + e.what());
    case TrainingRunRefused::Cause::save:
        throw UsageError(std::string("--save: ") + e.what());
    case TrainingRunRefused::Cause::diverged:
        throw UsageError(std::string("--lr: ") + e.what());
    case TrainingRunRefused::Cause::model:
        break;
    }
    throw UsageError("--device " + o.device + ": cannot hold this Cruncher: " + e.what());
}

// One line per run: the loss from first to last step, the median step, FLOP rate and memory.
void printRun(const TrainingRun& run, std::ostream& out) {
    const CruncherConfig& config = run.request.config;
    out << "Cruncher D=" << config.dim << " L=" << config.layers << " B=" << config.batch << " "
        << optimizerName(config.optimizer)
        << (config.precision == PrecisionRecipe::fp32 && !config.tf32Matmuls
                ? ""
                : " " + trainingRecipeName(config))
        << (config.frozenLayers.empty() ? "" : " frozen " + frozenLayersText(config.frozenLayers))
        << ": loss " << run.losses.front() << " -> " << run.losses.back() << ", step "
        << formatDuration(run.stepTiming.medianSeconds) << " (median), " << run.flopsPerSecond / 1e9
        << " GFLOP/s"
        << (run.mfu ? "; MFU " + formatNumber(*run.mfu) + " of the " + trainingComputeDtype(config) + " peak"
                    : "")
        << "; memory measured " << run.memory.total.measured << " B, predicted " << run.memory.total.predicted
        << " B\n  " << predictedStepLine(run) << "\n";
}

CruncherConfig configFrom(const TrainOptions& o) {
    CruncherConfig c;
    c.dim = wholeOption("--dim", o.dim, 65536);
    c.layers = wholeOption("--layers", o.layers, 4096);
    c.batch = wholeOption("--batch", o.batch, 1e7);
    if (!o.freeze.empty()) {
        const auto frozen = frozenLayersFromText(o.freeze, c.layers);
        if (!frozen)
            throw UsageError("--freeze: '" + o.freeze + "' is not a list of layers from 1 to " +
                             std::to_string(c.layers) + ", each once (for example 1-2,4)");
        c.frozenLayers = *frozen;
    }
    const auto optimizer = optimizerFromName(o.optimizer);
    if (!optimizer)
        throw UsageError("--optimizer: unknown '" + o.optimizer + "' (" +
                         joinNames(enumNames(allOptimizers(), optimizerName), ", ") + ")");
    c.optimizer = *optimizer;
    // The first recipe of the list; which recipes the chosen backend's trainer runs is asked of it
    // (runTrain).
    setTrainingRecipe(c, recipesFrom(o).front());
    c.hyper.learningRate =
        o.lr.empty() ? defaultLearningRate(c.optimizer, c.dim) : parseNumberOption("--lr", o.lr);
    if (!(c.hyper.learningRate > 0))
        throw UsageError("--lr must be > 0");
    c.seedInit = o.seedInit;
    c.seedData = o.seedData;
    return c;
}

int runTrain(const TrainOptions& o, std::ostream& out) {
    TrainingRunRequest request;
    request.config = configFrom(o);
    request.steps = wholeOption("--steps", o.steps, 1e7);
    request.resumeFrom = o.resume;
    request.saveTo = o.save;
    if (!request.config.frozenLayers.empty() && o.device != "cpu")
        throw UsageError("--freeze: frozen layers train on the CPU trainers only (--device cpu)");
    auto backend = backendForDevice(o.device, o.threads, o.backend);
    const std::optional<HardwareProfile> profile = chosenProfile(o, backend->deviceInfo());
    const std::vector<std::string> recipes = recipesFrom(o);
    if (recipes.size() > 1) { // the recipes side by side: one run each, the same data and initial weights
        std::vector<TrainingRun> runs;
        try {
            runs = runCruncherRecipes(*backend, request, recipes);
        } catch (const TrainingRunRefused& e) {
            refused(e, o);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        for (TrainingRun& run : runs)
            predictRunStep(run, profile, o.hardwareProfile);
        if (o.json) {
            out << jsonText(trainingRecipesJson(runs));
            return 0;
        }
        for (const TrainingRun& run : runs)
            printRun(run, out);
        return 0;
    }
    if (std::string why = backend->unsupportedRecipeReason(request.config); !why.empty())
        throw UsageError(why.rfind("--precision", 0) == 0 ? why : "--precision " + o.precision + ": " + why);
    TrainingRun run;
    try {
        run = runCruncherTraining(*backend, request);
    } catch (const TrainingRunRefused& e) {
        refused(e, o);
    }
    predictRunStep(run, profile, o.hardwareProfile);
    if (o.json) {
        out << jsonText(trainingRunJson(run));
        return 0;
    }
    printRun(run, out);
    return 0;
}

} // namespace

Command addBenchTrainCommand(CLI::App& bench) {
    auto o = std::make_shared<TrainOptions>();
    CLI::App* cmd =
        bench.add_subcommand("train", "Train the lecture's Cruncher and compare its memory with the formula");
    cmd->add_option("--device", o->device, "cpu or cuda (default cpu)");
    cmd->add_option("--dim", o->dim, "width D (required)");
    cmd->add_option("--layers", o->layers, "D×D layers L (required)");
    cmd->add_option("--batch", o->batch, "batch B (required)");
    cmd->add_option("--steps", o->steps, "training steps (default 10)");
    cmd->add_option("--optimizer", o->optimizer,
                    "sgd, momentum, adagrad, rmsprop, adam, adamw (default adagrad)");
    cmd->add_option("--precision", o->precision,
                    "fp32 (default), tf32 (cuda), mixed-bf16 (bf16 GEMMs, fp32 master weights and state; "
                    "--backend onednn or cuda), mixed-fp16 (cuda, dynamic loss scaling); a comma list runs "
                    "each on the same data, side by side");
    cmd->add_option("--lr", o->lr, "learning rate (default: one per optimizer that makes the loss fall)");
    addSeedOption(*cmd, "--seed-init", o->seedInit, "seed of the weights (default 0)");
    addSeedOption(*cmd, "--seed-data", o->seedData, "seed of the target function and batches (default 1)");
    cmd->add_option("--threads", o->threads, "cpu threads (default: one per physical core)")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--backend", o->backend, cpuBackendHelp());
    cmd->add_option("--freeze", o->freeze,
                    "layers that do not train, from 1: 1-2,4 (default none; the head always trains)");
    cmd->add_option("--save", o->save, "write a checkpoint here after the last step");
    cmd->add_option("--resume", o->resume, "start from this checkpoint");
    cmd->add_option(
        "--hardware-profile", o->hardwareProfile,
        "predict the step from this profile (napkin-cli calibrate --out FILE); default: the GPU's "
        "published one, none on the CPU");
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o](std::ostream& out, std::ostream&) { return runTrain(*o, out); }};
}

} // namespace napkin::cli
