// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu_backend_kind.h"

#include "engine/text/name_table.h"

namespace napkin {
namespace {
constexpr NameTable<CpuBackendKind, 2> kNames{
    {{CpuBackendKind::onednn, "onednn"}, {CpuBackendKind::eigen, "eigen"}}};
constexpr auto kAll = valuesIn(kNames);
} // namespace

std::string_view cpuBackendKindName(CpuBackendKind kind) {
    return nameIn(kNames, kind);
}

std::optional<CpuBackendKind> cpuBackendKindFromName(std::string_view name) {
    return valueIn(kNames, name);
}

std::string cpuBackendKindNames() {
    return namesIn(kNames);
}

std::span<const CpuBackendKind> allCpuBackendKinds() {
    return kAll;
}

} // namespace napkin
