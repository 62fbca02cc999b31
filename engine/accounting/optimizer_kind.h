// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Optimizers and how many state tensors (each the size of the parameters) they keep.
#include <optional>
#include <span>
#include <string_view>

namespace napkin {

enum class OptimizerKind { sgd, momentum, adagrad, rmsprop, adam, adamw };

/// State tensors per parameter tensor: SGD 0; momentum 1 (velocity); AdaGrad 1 (sum of g²);
/// RMSProp 1 (running mean of g²); Adam and AdamW 2 (first and second moments).
int stateTensorsPerParameter(OptimizerKind kind);

std::string_view optimizerName(OptimizerKind kind);
std::optional<OptimizerKind> optimizerFromName(std::string_view name);
std::span<const OptimizerKind> allOptimizers();

} // namespace napkin
