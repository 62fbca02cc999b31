// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The recipe comparison as data: which of the lecture's training recipes the chosen backend runs and which
// it refuses (with its reason), the runs runCruncherRecipes returned, and the loss curves of a comparison
// still training, followed from its progress reports. No widgets: the page decides, the panel shows.
#include "engine/benchmarks/benchmark_progress.h"
#include "engine/benchmarks/training_run.h"

#include <string>
#include <vector>

/// A recipe the backend does not train, and its reason (BenchmarkBackend::unsupportedRecipeReason).
struct RecipeRefusal {
    std::string recipe;
    std::string reason;
    bool operator==(const RecipeRefusal&) const = default;
};

/// One recipe's losses so far, as a comparison trains.
struct RecipeLosses {
    std::string recipe;
    std::vector<double> losses;
};

struct RecipeComparison {
    std::vector<std::string> recipes;      ///< those asked of runCruncherRecipes, in order
    std::vector<RecipeRefusal> refused;    ///< the backend's refusals, in the order of comparedRecipes()
    std::vector<napkin::TrainingRun> runs; ///< one per recipe run; fewer after a cancel (the last cancelled)
};

/// The recipes the page compares, in order: fp32, tf32, mixed-bf16, mixed-fp16 (training recipe names:
/// napkin::setTrainingRecipe).
const std::vector<std::string>& comparedRecipes();

/// Each of comparedRecipes() that `backend` refuses for `config`'s setup, with its reason.
std::vector<RecipeRefusal> refusedRecipes(const napkin::BenchmarkBackend& backend,
                                          const napkin::CruncherConfig& config);

/// comparedRecipes() split into those `backend` trains (RecipeComparison::recipes) and those it refuses; no
/// runs yet.
RecipeComparison planRecipeComparison(const napkin::BenchmarkBackend& backend,
                                      const napkin::CruncherConfig& config);

/// Adds a finished step's loss (p.stepLoss) to the curve of the recipe that leads p.detail
/// ("mixed-bf16 · step 3/20", as runCruncherRecipes reports), starting that curve when it is new. False
/// for a report with no loss or no recipe named.
bool addRecipeLoss(std::vector<RecipeLosses>& curves, const napkin::BenchmarkProgress& p);
