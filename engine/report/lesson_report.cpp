// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/lesson_report.h"

#include "engine/report/json_values.h"

#include <cmath>
#include <cstring>

namespace napkin {

nlohmann::json initStdJson(const InitStdConfig& c, const InitStdResult& r) {
    nlohmann::json curves = nlohmann::json::array();
    for (const InitStdCurve& curve : r.curves) {
        // The geometric mean of std_l / std_{l−1} over the layers: what the log-axis slope shows.
        const double measured = std::pow(curve.stdPerLayer.back() / curve.stdPerLayer.front(),
                                         1.0 / static_cast<double>(c.layers));
        curves.push_back(
            {{"scheme", initSchemeKey(curve.scheme)},
             {"name", initSchemeName(curve.scheme)},
             {"std_per_layer", curve.stdPerLayer},
             {"predicted_growth_per_layer", jsonNumber(curve.predictedGrowthPerLayer)},
             {"measured_growth_per_layer", measured},
             {"fp32_overflow_layer", curve.fp32OverflowLayer < 0 ? nlohmann::json(nullptr)
                                                                 : nlohmann::json(curve.fp32OverflowLayer)}});
    }
    return {{"lesson", "init"},
            {"dim", c.dim},
            {"layers", c.layers},
            {"batch", c.batch},
            {"seed", c.seed},
            {"note", "std_per_layer[0] is the input's; std_per_layer[l] the std after layer l"},
            {"curves", curves}};
}

nlohmann::json lessonRunJson(const LessonCruncherConfig& c, const LessonTrainingRun& r) {
    return {{"recipe", precisionLessonKey(r.recipe)},
            {"name", precisionLessonName(r.recipe)},
            {"seed_init", c.seedInit},
            {"seed_data", c.seedData},
            {"seed_task", c.seedTask},
            {"losses", r.losses},
            {"final_loss", r.losses.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.losses.back())},
            {"underflows_per_step", r.underflowsPerStep},
            {"underflow_total", r.underflowTotal},
            {"gradient_values_per_step", jsonNumber(r.gradientValuesPerStep)},
            {"skipped_steps", r.skippedSteps},
            {"final_loss_scale", r.lossScalePerStep.empty() ? 1.0 : r.lossScalePerStep.back()},
            {"init_checksum", r.initChecksum},
            {"dataset_checksum", r.datasetChecksum},
            {"first_epoch_order", r.firstEpochOrder}};
}

bool bitIdentical(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

nlohmann::json determinismJson(const LessonCruncherConfig& a, const LessonTrainingRun& runA,
                               const LessonTrainingRun& runAAgain, const LessonCruncherConfig& b,
                               const LessonTrainingRun& runB) {
    return {{"lesson", "determinism"},
            {"a", lessonRunJson(a, runA)},
            {"b", lessonRunJson(b, runB)},
            {"a_repeated_bit_identical", bitIdentical(runA.losses, runAAgain.losses)},
            {"a_b_bit_identical", bitIdentical(runA.losses, runB.losses)},
            {"same_init", runA.initChecksum == runB.initChecksum},
            {"same_dataset", runA.datasetChecksum == runB.datasetChecksum},
            {"same_order", runA.firstEpochOrder == runB.firstEpochOrder}};
}

nlohmann::json mixedPrecisionJson(const LessonCruncherConfig& c, const std::vector<LessonTrainingRun>& runs) {
    nlohmann::json docs = nlohmann::json::array();
    for (const LessonTrainingRun& run : runs)
        docs.push_back(lessonRunJson(c, run));
    return {{"lesson", "mixed-precision"},
            {"dim", c.dim},
            {"layers", c.layers},
            {"batch", c.batch},
            {"examples", c.examples},
            {"steps", c.steps},
            {"learning_rate", c.learningRate},
            {"target_scale", c.targetScale},
            {"initial_loss_scale", c.initialLossScale},
            {"scale_growth_interval", c.scaleGrowthInterval},
            {"method",
             "every value rounded through napkin's exact codecs (round to nearest even); matmuls accumulate "
             "in fp32 and round their outputs to the compute dtype; an underflow is a gradient value that is "
             "non-zero in fp32 and zero in the compute dtype"},
            {"runs", docs}};
}

nlohmann::json datasetSizingJson(const DatasetSizing& s) {
    return {{"bytes", jsonNumber(s.bytes)},
            {"tokens", jsonNumber(s.tokens)},
            {"pages", jsonNumber(s.pages)},
            {"batch_bytes", jsonNumber(s.batchBytes)},
            {"batch_pages_at_most", jsonNumber(s.batchPagesAtMost)}};
}

} // namespace napkin
