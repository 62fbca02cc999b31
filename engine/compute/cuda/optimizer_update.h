// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One optimizer update of one element, compiled both into the CUDA kernel and into the host tests, so
// the GPU's update rules are checked on the CPU against engine/cpu/optimizer_step.cpp (the same
// arithmetic in double, stored as float, in the same order).
#include "engine/compute/cuda/cuda_kernels.h"

#include <cmath>

#ifdef __CUDACC__
#define NAPKIN_HOST_DEVICE __host__ __device__
#else
#define NAPKIN_HOST_DEVICE
#endif

namespace napkin::cuda {

NAPKIN_HOST_DEVICE inline double squareRoot(double x) {
#ifdef __CUDA_ARCH__
    return sqrt(x);
#else
    return std::sqrt(x);
#endif
}

/// p, s1, s2 updated from gradient g by rule `a.kind` (see OptimizerArgs); unused states are ignored.
NAPKIN_HOST_DEVICE inline void updateElement(const OptimizerArgs& a, float& p, float gradient, float& s1,
                                             float& s2) {
    const double g = gradient;
    switch (a.kind) {
    case 0:
        p = static_cast<float>(p - a.lr * g);
        return;
    case 1:
        s1 = static_cast<float>(a.momentum * s1 + g);
        p = static_cast<float>(p - a.lr * s1);
        return;
    case 2:
        s1 = static_cast<float>(s1 + g * g);
        p = static_cast<float>(p - a.lr * g / squareRoot(static_cast<double>(s1) + a.adagradEps));
        return;
    case 3:
        s1 = static_cast<float>(a.alpha * s1 + (1 - a.alpha) * g * g);
        p = static_cast<float>(p - a.lr * g / (squareRoot(static_cast<double>(s1)) + a.eps));
        return;
    default: { // 4 adam, 5 adamw (decoupled weight decay first, as torch.optim.AdamW)
        double pi = p;
        if (a.kind == 5)
            pi -= a.lr * a.weightDecay * pi;
        s1 = static_cast<float>(a.beta1 * s1 + (1 - a.beta1) * g);
        s2 = static_cast<float>(a.beta2 * s2 + (1 - a.beta2) * g * g);
        const double mHat = s1 / a.biasCorrection1, vHat = s2 / a.biasCorrection2;
        p = static_cast<float>(pi - a.lr * mHat / (squareRoot(vHat) + a.eps));
    }
    }
}

} // namespace napkin::cuda
