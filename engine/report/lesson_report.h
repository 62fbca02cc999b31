// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The training-loop lessons as JSON: the documents of `napkin-cli lesson ... --json` (docs/cli.md).
#include "engine/lessons/init_std_experiment.h"
#include "engine/lessons/mixed_precision_trainer.h"
#include "engine/lessons/token_file_generator.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace napkin {

/// {lesson: "init", dim, layers, batch, seed, note, curves[]}: activation std per layer for each scheme.
nlohmann::json initStdJson(const InitStdConfig& config, const InitStdResult& result);
/// One run of the lesson Cruncher: {recipe, name, seeds, losses, underflows, loss scale, checksums, order}.
nlohmann::json lessonRunJson(const LessonCruncherConfig& config, const LessonTrainingRun& run);
/// {lesson: "determinism", a, b, a_repeated_bit_identical, a_b_bit_identical, same_init, same_dataset,
/// same_order}: run a twice with its seeds, run b with other seeds.
nlohmann::json determinismJson(const LessonCruncherConfig& a, const LessonTrainingRun& runA,
                               const LessonTrainingRun& runAAgain, const LessonCruncherConfig& b,
                               const LessonTrainingRun& runB);
/// {lesson: "mixed-precision", the configuration, method, runs[]}.
nlohmann::json mixedPrecisionJson(const LessonCruncherConfig& config,
                                  const std::vector<LessonTrainingRun>& runs);
/// {bytes, tokens, pages, batch_bytes, batch_pages_at_most}.
nlohmann::json datasetSizingJson(const DatasetSizing& sizing);

/// True when both loss curves are the same bit for bit.
bool bitIdentical(const std::vector<double>& a, const std::vector<double>& b);

} // namespace napkin
