// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A training run whose loss stops being a number has diverged: every trainer (the Cruncher benchmark, the
// training-loop lessons) refuses to report it, with the same reason, rather than print null or inf
// losses as if they were results.
#include <span>
#include <string>

namespace napkin {

/// Empty when `loss` is finite; otherwise "the loss is NaN at step 12 (learning rate 1.00e30): training
/// diverged; try a smaller learning rate".
std::string divergedLossReason(double loss, long step, double learningRate);

/// divergedLossReason for the first loss of `losses` that is not finite, losses[i] being step
/// firstStep + i; empty when every loss is finite.
std::string firstDivergedLossReason(std::span<const double> losses, long firstStep, double learningRate);

} // namespace napkin
