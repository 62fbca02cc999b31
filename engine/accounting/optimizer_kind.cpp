// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/optimizer_kind.h"

#include "engine/text/name_table.h"

namespace napkin {
namespace {
constexpr NameTable<OptimizerKind, 6> kOptimizerNames{{{OptimizerKind::sgd, "sgd"},
                                                       {OptimizerKind::momentum, "momentum"},
                                                       {OptimizerKind::adagrad, "adagrad"},
                                                       {OptimizerKind::rmsprop, "rmsprop"},
                                                       {OptimizerKind::adam, "adam"},
                                                       {OptimizerKind::adamw, "adamw"}}};
constexpr auto kOptimizers = valuesIn(kOptimizerNames);
} // namespace

int stateTensorsPerParameter(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::sgd:
        return 0;
    case OptimizerKind::momentum:
    case OptimizerKind::adagrad:
    case OptimizerKind::rmsprop:
        return 1;
    case OptimizerKind::adam:
    case OptimizerKind::adamw:
        return 2;
    }
    return 0;
}

std::string_view optimizerName(OptimizerKind kind) {
    return nameIn(kOptimizerNames, kind);
}

std::optional<OptimizerKind> optimizerFromName(std::string_view name) {
    return valueIn(kOptimizerNames, name);
}

std::span<const OptimizerKind> allOptimizers() {
    return kOptimizers;
}

} // namespace napkin
