// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/optimizer_step.h"

#include <cmath>
#include <cstddef>

namespace napkin {

void applyOptimizerStep(OptimizerKind kind, const OptimizerHyper& h, long step, std::span<float> p,
                        std::span<const float> g, std::span<float> s1, std::span<float> s2) {
    // Arithmetic in double, stored as float: the update rule, not float rounding, is what is tested.
    const std::size_t n = p.size();
    const double lr = h.learningRate;
    switch (kind) {
    case OptimizerKind::sgd:
        for (std::size_t i = 0; i < n; ++i)
            p[i] = static_cast<float>(p[i] - lr * g[i]);
        return;
    case OptimizerKind::momentum:
        for (std::size_t i = 0; i < n; ++i) {
            s1[i] = static_cast<float>(h.momentum * s1[i] + g[i]);
            p[i] = static_cast<float>(p[i] - lr * s1[i]);
        }
        return;
    case OptimizerKind::adagrad:
        for (std::size_t i = 0; i < n; ++i) {
            const double gi = g[i];
            s1[i] = static_cast<float>(s1[i] + gi * gi);
            p[i] = static_cast<float>(p[i] - lr * gi / std::sqrt(static_cast<double>(s1[i]) + h.adagradEps));
        }
        return;
    case OptimizerKind::rmsprop:
        for (std::size_t i = 0; i < n; ++i) {
            const double gi = g[i];
            s1[i] = static_cast<float>(h.alpha * s1[i] + (1 - h.alpha) * gi * gi);
            p[i] = static_cast<float>(p[i] - lr * gi / (std::sqrt(static_cast<double>(s1[i])) + h.eps));
        }
        return;
    case OptimizerKind::adam:
    case OptimizerKind::adamw: {
        const double t = static_cast<double>(step);
        const double c1 = 1 - std::pow(h.beta1, t), c2 = 1 - std::pow(h.beta2, t);
        const double decay = kind == OptimizerKind::adamw ? lr * h.weightDecay : 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double gi = g[i];
            double pi = p[i];
            pi -=
                decay * pi; // AdamW: decoupled weight decay (Loshchilov & Hutter 2019), as torch.optim.AdamW
            s1[i] = static_cast<float>(h.beta1 * s1[i] + (1 - h.beta1) * gi);
            s2[i] = static_cast<float>(h.beta2 * s2[i] + (1 - h.beta2) * gi * gi);
            const double mHat = s1[i] / c1, vHat = s2[i] / c2;
            p[i] = static_cast<float>(pi - lr * mHat / (std::sqrt(vHat) + h.eps));
        }
        return;
    }
    }
}

} // namespace napkin
