// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small Cruncher (L bias-free D×D layers, a D×1 head, MSE, SGD) trained on a fixed synthetic
// dataset with each number rounded through the exact software codecs of engine/float_format.h, so the
// precision recipes of mixed-precision training run, bit for bit, on any CPU. Also the determinism
// lesson's trainer: every source of randomness has its own seed.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

enum class PrecisionLesson {
    fp32,           ///< everything fp32
    bf16Mixed,      ///< bf16 compute (weights, activations, gradients), fp32 master weights and update
    bf16Pure,       ///< bf16 everywhere, the weights too: updates below half a bf16 step are lost
    fp16NoScaling,  ///< fp16 compute, fp32 master weights, no loss scaling: small gradients flush to 0
    fp16LossScaling ///< as fp16NoScaling, the loss multiplied by a dynamic scale (PyTorch GradScaler rules)
};

inline constexpr PrecisionLesson kPrecisionLessons[5] = {
    PrecisionLesson::fp32, PrecisionLesson::bf16Mixed, PrecisionLesson::bf16Pure,
    PrecisionLesson::fp16NoScaling, PrecisionLesson::fp16LossScaling};

/// "fp32", "bf16-mixed", "bf16-pure", "fp16", "fp16-scaled" (the CLI's keys).
std::string_view precisionLessonKey(PrecisionLesson recipe);
std::optional<PrecisionLesson> precisionLessonFromKey(std::string_view key);
/// "fp32, bf16-mixed, bf16-pure, fp16, fp16-scaled" (help texts, error messages).
std::string precisionLessonKeys();
/// "fp32", "bf16 compute, fp32 master", "pure bf16", "fp16, no loss scaling", "fp16 + loss scaling".
std::string_view precisionLessonName(PrecisionLesson recipe);

struct LessonCruncherConfig {
    long dim = 16;       ///< D
    long layers = 3;     ///< L
    long batch = 32;     ///< B
    long examples = 256; ///< N: the fixed dataset, visited in a shuffled order each epoch
    long steps = 300;
    double learningRate = 0.1; ///< SGD
    double targetScale =
        1e-3; ///< targets t = targetScale·x·w*: small targets make small residuals and gradients
    std::uint64_t seedInit = 0;      ///< weights: N(0, 1)/√fan_in
    std::uint64_t seedData = 1;      ///< the order the examples are visited in (a shuffle per epoch)
    std::uint64_t seedTask = 2;      ///< the dataset itself: inputs x ~ N(0, 1)^D and the target function w*
    double initialLossScale = 65536; ///< 2^16, GradScaler's default
    long scaleGrowthInterval = 100;  ///< steps without inf/NaN before the scale doubles (GradScaler: 2000)
};

struct LessonTrainingRun {
    PrecisionLesson recipe = PrecisionLesson::fp32;
    std::vector<double> losses;           ///< per step, before the update (double sum of the rounded outputs)
    std::vector<long> underflowsPerStep;  ///< gradient values non-zero in fp32 but 0 in the compute dtype
    std::vector<double> lossScalePerStep; ///< the scale used in each step (1 without scaling)
    long underflowTotal = 0;
    double gradientValuesPerStep = 0; ///< B + D + B·D + L·D² + (L − 1)·B·D: every gradient value counted
    long skippedSteps = 0;            ///< loss scaling: steps whose gradients held inf/NaN
    std::vector<std::uint32_t> firstEpochOrder; ///< example indices in the order the first epoch visits them
    std::uint64_t initChecksum = 0;             ///< FNV-1a of the initial fp32 weights' bytes
    std::uint64_t datasetChecksum = 0;          ///< FNV-1a of the dataset's bytes
};

/// Runs `config.steps` steps of one recipe. Throws std::invalid_argument for sizes < 1, N < B, or
/// D > 512, L > 16, B > 1024, N > 65536, steps > 100000 (the codecs round every value: keep it small).
/// `keepGoing(stepsDone)` returning false stops early (the run holds the steps done so far).
LessonTrainingRun trainPrecisionLesson(const LessonCruncherConfig& config, PrecisionLesson recipe,
                                       const std::function<bool(long)>& keepGoing = {});

} // namespace napkin
