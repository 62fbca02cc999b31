// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A Cruncher training run as JSON and CSV. The JSON is the document of `napkin-cli bench train --json`,
// and the Benchmarks page exports the same document.
#include "engine/benchmarks/training_run.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace napkin {

/// {benchmark, model, device, steps, first_step, flops_per_step, ..., loss[], memory{...}} (docs/cli.md).
nlohmann::json trainingRunJson(const TrainingRun& run);
/// Four tables, each row led by its section: "run" (one row of the run's figures), "memory" (one row per
/// component, predicted and measured bytes), "timeline" (event, phase, predicted and measured bytes of
/// the last step), "loss" (step, loss).
std::string trainingRunCsv(const TrainingRun& run);

/// Several recipes of one setup (runCruncherRecipes): {benchmark: "train_recipes", recipes[], comparison[]
/// (one row per run: the recipe, its step times, MFU against its own peak, wall MFU, memory predicted and
/// measured, the first and last loss), runs[] (each run's trainingRunJson, loss curve included)}
/// (docs/cli.md).
nlohmann::json trainingRecipesJson(const std::vector<TrainingRun>& runs);
/// The same comparison as CSV, read back from trainingRecipesJson so the two never disagree: a "comparison"
/// table (one row per run: its comparison[] fields, recipe first, then each run's peak over one step,
/// predicted and measured) and a "loss" table (recipe, step, loss).
std::string trainingRecipesCsv(const std::vector<TrainingRun>& runs);

} // namespace napkin
