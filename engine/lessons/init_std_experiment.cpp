// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lessons/init_std_experiment.h"

#include "engine/text/name_table.h"

#include "engine/numerics/gaussian_source.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace napkin {
namespace {
constexpr NameTable<InitScheme, 3> kInitSchemeKeys{{{InitScheme::standardNormal, "normal"},
                                                    {InitScheme::xavier, "xavier"},
                                                    {InitScheme::truncatedXavier, "truncated"}}};
} // namespace

namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double populationStd(const Matrix& m) {
    const double n = static_cast<double>(m.size());
    const double mean = m.sum() / n;
    return std::sqrt((m.array() - mean).square().sum() / n);
}

constexpr double kTruncation = 3.0; // ±3σ

// Fills `m` with N(0, 1) draws, both Box–Muller values of each pair (the weights are D² draws per layer;
// GaussianSource keeps only one value per pair so that its state is just the engine's, which a weight
// matrix does not need). u1 in (0, 1], u2 in [0, 1), each from 53 random bits.
void fillGaussian(Matrix& m, std::mt19937_64& engine) {
    double* p = m.data();
    const Eigen::Index n = m.size();
    for (Eigen::Index i = 0; i < n; i += 2) {
        const double u1 = (static_cast<double>(engine() >> 11) + 1.0) * 0x1.0p-53;
        const double u2 = static_cast<double>(engine() >> 11) * 0x1.0p-53;
        const double r = std::sqrt(-2.0 * std::log(u1)), a = 2.0 * std::numbers::pi * u2;
        p[i] = r * std::cos(a);
        if (i + 1 < n)
            p[i + 1] = r * std::sin(a);
    }
}

} // namespace

std::string_view initSchemeName(InitScheme scheme) {
    switch (scheme) {
    case InitScheme::standardNormal:
        return "N(0,1)";
    case InitScheme::xavier:
        return "N(0,1)/sqrt(D)";
    case InitScheme::truncatedXavier:
        return "trunc3 N(0,1)/sqrt(D)";
    }
    return "?";
}

std::string_view initSchemeKey(InitScheme scheme) {
    return nameIn(kInitSchemeKeys, scheme);
}

double truncatedNormalVariance(double c) {
    const double phi = std::exp(-0.5 * c * c) / std::sqrt(2.0 * std::numbers::pi);
    const double mass = std::erf(c / std::numbers::sqrt2); // 2Φ(c) − 1
    return 1.0 - 2.0 * c * phi / mass;
}

InitStdResult runInitStdExperiment(const InitStdConfig& config, const std::function<bool(long)>& keepGoing) {
    if (config.dim < 1 || config.dim > 4096)
        throw std::invalid_argument("dim must be between 1 and 4096");
    if (config.layers < 1 || config.layers > 128)
        throw std::invalid_argument("layers must be between 1 and 128");
    if (config.batch < 1 || config.batch > 4096)
        throw std::invalid_argument("batch must be between 1 and 4096");
    const long D = config.dim, B = config.batch;
    const double invSqrtD = 1.0 / std::sqrt(static_cast<double>(D));
    GaussianSource gauss(config.seed);

    Matrix input(B, D);
    for (Eigen::Index i = 0; i < input.size(); ++i)
        input.data()[i] = gauss.next();

    InitStdResult result;
    result.config = config;
    const InitScheme schemes[3] = {InitScheme::standardNormal, InitScheme::xavier,
                                   InitScheme::truncatedXavier};
    const double growth[3] = {std::sqrt(static_cast<double>(D)), 1.0,
                              std::sqrt(truncatedNormalVariance(kTruncation))};
    std::vector<Matrix> h(3, input);
    for (int s = 0; s < 3; ++s) {
        result.curves.push_back({schemes[s], {populationStd(input)}, growth[s], -1});
    }
    // One Gaussian draw G per layer shared by the three schemes, so the curves differ only by the
    // scheme: (a) uses G, (b) G/√D, (c) G with every |g| > 3 redrawn, then /√D. The activations are
    // kept in double: (a) reaches D^(L/2), past fp32's range (and the lecture's point) within a few layers.
    Matrix g(D, D), next(B, D);
    const double fp32Max = static_cast<double>(std::numeric_limits<float>::max());
    for (long l = 1; l <= config.layers; ++l) {
        if (keepGoing && !keepGoing(l - 1))
            break;
        fillGaussian(g, gauss.engine());
        for (int s = 0; s < 3; ++s) {
            InitStdCurve& curve = result.curves[static_cast<std::size_t>(s)];
            auto& hs = h[static_cast<std::size_t>(s)];
            if (s == 0) {
                next.noalias() = hs * g;
            } else if (s == 1) {
                next.noalias() = (hs * g) * invSqrtD;
            } else {
                Matrix t = g;
                for (Eigen::Index i = 0; i < t.size(); ++i)
                    while (std::abs(t.data()[i]) > kTruncation)
                        t.data()[i] = gauss.next();
                next.noalias() = (hs * t) * invSqrtD;
            }
            hs.swap(next);
            curve.stdPerLayer.push_back(populationStd(hs));
            if (curve.fp32OverflowLayer < 0 && hs.cwiseAbs().maxCoeff() > fp32Max)
                curve.fp32OverflowLayer = l;
        }
    }
    return result;
}

} // namespace napkin
