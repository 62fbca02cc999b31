// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lecture's initialization lesson, computed: push a random batch through L bias-free D×D linear
// layers and measure the standard deviation of the activations after each layer, for three ways of
// drawing the weights.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace napkin {

enum class InitScheme {
    standardNormal, ///< W ~ N(0, 1): the activation std grows by √D per layer
    xavier,         ///< W ~ N(0, 1)/√fan_in (the lecture's fix): the std stays near 1
    truncatedXavier ///< N(0, 1) truncated to ±3σ, then /√fan_in: the std shrinks by 0.98658 per layer
};

/// "N(0,1)", "N(0,1)/sqrt(D)", "trunc3 N(0,1)/sqrt(D)".
std::string_view initSchemeName(InitScheme scheme);
/// "normal", "xavier", "truncated" (the CLI's keys).
std::string_view initSchemeKey(InitScheme scheme);

struct InitStdConfig {
    long dim = 256;         ///< D, fan_in = fan_out
    long layers = 10;       ///< L
    long batch = 16;        ///< rows of the random input, each ~ N(0, 1)^D
    std::uint64_t seed = 0; ///< the input and the weights; the three schemes share the same draws
};

struct InitStdCurve {
    InitScheme scheme = InitScheme::xavier;
    /// stdPerLayer[0] is the input's std, stdPerLayer[l] the std after layer l (population std over
    /// all B·D values, computed in double so that (a) does not overflow where fp32 would).
    std::vector<double> stdPerLayer;
    /// What theory says one layer multiplies the std by: √D, 1, or √(Var of N(0,1) cut at ±3) = 0.98658.
    double predictedGrowthPerLayer = 1;
    /// The first layer whose largest |activation| exceeds fp32's max (3.4e38), or −1: where the
    /// lecture's float32 tensors would turn into inf.
    long fp32OverflowLayer = -1;
};

struct InitStdResult {
    InitStdConfig config;
    std::vector<InitStdCurve> curves; ///< standardNormal, xavier, truncatedXavier
};

/// Variance of N(0, 1) truncated to [−c, c]: 1 − 2c·φ(c)/(2Φ(c) − 1) (c = 3: 0.973337).
double truncatedNormalVariance(double c);

/// Runs the experiment; throws std::invalid_argument unless 1 ≤ D ≤ 4096, 1 ≤ L ≤ 128, 1 ≤ B ≤ 4096.
/// `keepGoing(layersDone)` returning false stops early (the curves then hold the layers done so far).
InitStdResult runInitStdExperiment(const InitStdConfig& config,
                                   const std::function<bool(long)>& keepGoing = {});

} // namespace napkin
