// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One optimizer update on a flat parameter tensor, element by element (PyTorch's update rules; AdaGrad
// exactly as the lecture writes it).
#include "engine/compute/cruncher_config.h"

#include <span>

namespace napkin {

/// Updates `p` in place from gradient `g`. `s1`, `s2` are the optimizer's state tensors (same size as
/// `p`; unused ones may be empty); `step` counts from 1 (Adam's bias correction).
///   sgd:      p −= lr·g
///   momentum: s1 = μ·s1 + g;  p −= lr·s1
///   adagrad:  s1 += g²;  p −= lr·g / √(s1 + 1e-5)
///   rmsprop:  s1 = α·s1 + (1 − α)·g²;  p −= lr·g / (√s1 + eps)
///   adam:     s1 = β1·s1 + (1 − β1)·g;  s2 = β2·s2 + (1 − β2)·g²;
///             p −= lr·(s1 / (1 − β1^t)) / (√(s2 / (1 − β2^t)) + eps)
///   adamw:    p −= lr·wd·p, then as adam
void applyOptimizerStep(OptimizerKind kind, const OptimizerHyper& hyper, long step, std::span<float> p,
                        std::span<const float> g, std::span<float> s1, std::span<float> s2);

} // namespace napkin
