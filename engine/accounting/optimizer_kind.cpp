#include "engine/accounting/optimizer_kind.h"

#include <array>

namespace napkin {
namespace {
constexpr std::array<OptimizerKind, 6> kOptimizers{OptimizerKind::sgd,     OptimizerKind::momentum,
                                                   OptimizerKind::adagrad, OptimizerKind::rmsprop,
                                                   OptimizerKind::adam,    OptimizerKind::adamw};
}

int stateTensorsPerParameter(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::sgd: return 0;
    case OptimizerKind::momentum:
    case OptimizerKind::adagrad:
    case OptimizerKind::rmsprop: return 1;
    case OptimizerKind::adam:
    case OptimizerKind::adamw: return 2;
    }
    return 0;
}

std::string_view optimizerName(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::sgd: return "sgd";
    case OptimizerKind::momentum: return "momentum";
    case OptimizerKind::adagrad: return "adagrad";
    case OptimizerKind::rmsprop: return "rmsprop";
    case OptimizerKind::adam: return "adam";
    case OptimizerKind::adamw: return "adamw";
    }
    return "sgd";
}

std::optional<OptimizerKind> optimizerFromName(std::string_view name) {
    for (OptimizerKind k : kOptimizers)
        if (optimizerName(k) == name)
            return k;
    return std::nullopt;
}

std::span<const OptimizerKind> allOptimizers() { return kOptimizers; }

} // namespace napkin
