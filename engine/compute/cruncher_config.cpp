#include "engine/compute/cruncher_config.h"

#include <algorithm>

namespace napkin {

double defaultLearningRate(OptimizerKind kind, long dim) {
    const double widthScale = std::min(1.0, 32.0 / static_cast<double>(std::max(1L, dim)));
    switch (kind) {
    case OptimizerKind::sgd:
        return 0.02;
    case OptimizerKind::momentum:
        return 0.005;
    case OptimizerKind::adagrad:
        return 0.05 * widthScale;
    case OptimizerKind::rmsprop:
        return 0.002 * widthScale;
    case OptimizerKind::adam:
    case OptimizerKind::adamw:
        return 0.005 * widthScale;
    }
    return 0.01;
}

double cruncherParameters(const CruncherConfig& c) {
    const double d = static_cast<double>(c.dim);
    return static_cast<double>(c.layers) * d * d + d;
}

double cruncherCountedFlopsPerStep(const CruncherConfig& c) {
    const double b = static_cast<double>(c.batch), d = static_cast<double>(c.dim);
    return 6.0 * b * cruncherParameters(c) - 2.0 * b * d * d;
}

} // namespace napkin
