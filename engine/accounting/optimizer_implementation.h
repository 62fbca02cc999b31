// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How torch.optim runs an optimizer's update (its `foreach` and `fused` arguments), which sets what the
// pytorch-eager profile's optimizer step holds above parameters, gradients and state
// (pytorch_eager_optimizer.h).
#include "engine/accounting/optimizer_kind.h"

#include <optional>
#include <span>
#include <string_view>

namespace napkin {

/// singleTensor: foreach=False, one parameter at a time (torch's default on the CPU);
/// forEach: foreach=True, the whole parameter list per op (torch ≥ 2.0's default when every parameter is
/// on a GPU); fused: fused=True, one kernel updates in place (Adam, AdamW and SGD on a GPU).
enum class OptimizerImplementation { singleTensor, forEach, fused };

std::string_view optimizerImplementationName(OptimizerImplementation implementation);
std::optional<OptimizerImplementation> optimizerImplementationFromName(std::string_view name);
std::span<const OptimizerImplementation> allOptimizerImplementations();

/// Why torch has no such update for `kind`, or empty: fused=True exists for sgd, momentum, adam and
/// adamw on a GPU (torch 2.11 refuses it for Adagrad on CUDA and RMSprop has no `fused`).
std::string_view optimizerImplementationUnsupported(OptimizerKind kind, OptimizerImplementation implementation);

/// torch ≥ 2.0's foreach update: the temporaries it holds at its high-water mark, in lists as large as
/// all the parameters it updates, per parameter byte: sgd 0, momentum 0, adagrad 2, rmsprop 1, adam 1,
/// adamw 1. Measured on an H100 with torch 2.11.0+cu130 (scripts/measure-optimizer-temporaries.py,
/// docs/memory-timeline.md "The optimizer step under pytorch-eager"); torch 1.13's differed (Adam 2).
double foreachTemporariesPerParameterByte(OptimizerKind kind);

} // namespace napkin
