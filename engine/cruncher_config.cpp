#include "engine/cruncher_config.h"

namespace napkin {

double defaultLearningRate(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::sgd: return 0.02;
    case OptimizerKind::momentum: return 0.005;
    case OptimizerKind::adagrad: return 0.05;
    case OptimizerKind::rmsprop: return 0.002;
    case OptimizerKind::adam:
    case OptimizerKind::adamw: return 0.005;
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
