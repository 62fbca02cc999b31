// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/optimizer_implementation.h"

#include "engine/text/name_table.h"

namespace napkin {
namespace {
constexpr NameTable<OptimizerImplementation, 3> kImplementationNames{
    {{OptimizerImplementation::singleTensor, "single-tensor"},
     {OptimizerImplementation::forEach, "foreach"},
     {OptimizerImplementation::fused, "fused"}}};
constexpr auto kImplementations = valuesIn(kImplementationNames);
} // namespace

std::string_view optimizerImplementationName(OptimizerImplementation implementation) {
    return nameIn(kImplementationNames, implementation);
}

std::optional<OptimizerImplementation> optimizerImplementationFromName(std::string_view name) {
    return valueIn(kImplementationNames, name);
}

std::span<const OptimizerImplementation> allOptimizerImplementations() {
    return kImplementations;
}

std::string_view optimizerImplementationUnsupported(OptimizerKind kind, OptimizerImplementation implementation) {
    if (implementation != OptimizerImplementation::fused)
        return {};
    switch (kind) {
    case OptimizerKind::adagrad:
        return "torch has no fused Adagrad on a GPU (fused=True is for the CPU's)";
    case OptimizerKind::rmsprop:
        return "torch's RMSprop has no fused update";
    default:
        return {};
    }
}

double foreachTemporariesPerParameterByte(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::sgd:
    case OptimizerKind::momentum:
        return 0; // in place: _foreach_add_, _foreach_mul_
    case OptimizerKind::adagrad:
        return 2; // two lists of the parameters' size at once (measured)
    case OptimizerKind::rmsprop: // avg = _foreach_sqrt(square_avgs)
    case OptimizerKind::adam:    // exp_avg_sq_sqrt = _foreach_sqrt(exp_avg_sqs), divided and added to in place
    case OptimizerKind::adamw:
        return 1;
    }
    return 0;
}

} // namespace napkin
