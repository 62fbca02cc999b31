// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numerics/diverged_loss.h"

#include "engine/numerics/quantity_format.h"

#include <cmath>

namespace napkin {

std::string divergedLossReason(double loss, long step, double learningRate) {
    if (std::isfinite(loss))
        return {};
    return "the loss is " + std::string(std::isnan(loss) ? "NaN" : "inf") + " at step " +
           std::to_string(step) + " (learning rate " + formatNumber(learningRate) +
           "): training diverged; try a smaller learning rate";
}

std::string firstDivergedLossReason(std::span<const double> losses, long firstStep, double learningRate) {
    for (std::size_t i = 0; i < losses.size(); ++i)
        if (!std::isfinite(losses[i]))
            return divergedLossReason(losses[i], firstStep + static_cast<long>(i), learningRate);
    return {};
}

} // namespace napkin
