// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One Cruncher setup trained in several recipes (fp32, tf32, mixed-bf16, mixed-fp16), one after another,
// each from the same seeds — the same data and initial weights —, so their step times, MFU against each
// recipe's own peak, memory and loss curves stand side by side: what `napkin-cli bench train --precision
// LIST` runs, and the Benchmarks page's recipe comparison.
#include "engine/benchmarks/training_run.h"

#include <string>
#include <vector>

namespace napkin {

/// The recipe names of a comma list ("fp32,tf32,mixed-bf16"), in order; throws std::invalid_argument for an
/// empty item, an unknown name (setTrainingRecipe's) or one named twice.
std::vector<std::string> trainingRecipesFromList(const std::string& list);

/// `request` run once per recipe (its config's precision and tf32Matmuls replaced by each). Every recipe is
/// asked of the backend (unsupportedRecipeReason) before the first runs: std::invalid_argument with
/// "--precision NAME: why" for the first it refuses; so is a checkpoint (resume or save) with more than one
/// recipe. `progress` sees each run's steps, its detail led by the recipe ("mixed-bf16 · step 3/20"), its
/// fraction that of the whole list (the second of four recipes half done: 0.375); a cancelled run ends the
/// list (the runs so far are returned, the last one marked cancelled). Throws what runCruncherTraining
/// throws.
std::vector<TrainingRun> runCruncherRecipes(BenchmarkBackend& backend, const TrainingRunRequest& request,
                                            const std::vector<std::string>& recipes,
                                            const ProgressCallback& progress = {});

} // namespace napkin
