// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_optimizer_args.h"

#include <cmath>

namespace napkin::cuda {

OptimizerArgs optimizerArgsFor(const CruncherConfig& c, long step) {
    static_assert(
        static_cast<int>(OptimizerKind::sgd) == 0 && static_cast<int>(OptimizerKind::momentum) == 1 &&
            static_cast<int>(OptimizerKind::adagrad) == 2 && static_cast<int>(OptimizerKind::rmsprop) == 3 &&
            static_cast<int>(OptimizerKind::adam) == 4 && static_cast<int>(OptimizerKind::adamw) == 5,
        "updateElement() switches on these numbers");
    const OptimizerHyper& h = c.hyper;
    OptimizerArgs a;
    a.kind = static_cast<int>(c.optimizer);
    a.lr = h.learningRate;
    a.momentum = h.momentum;
    a.alpha = h.alpha;
    a.beta1 = h.beta1;
    a.beta2 = h.beta2;
    a.eps = h.eps;
    a.adagradEps = h.adagradEps;
    a.weightDecay = h.weightDecay;
    a.biasCorrection1 = 1 - std::pow(h.beta1, static_cast<double>(step));
    a.biasCorrection2 = 1 - std::pow(h.beta2, static_cast<double>(step));
    return a;
}

} // namespace napkin::cuda
