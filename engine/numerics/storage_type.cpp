// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numerics/storage_type.h"

#include "engine/text/name_table.h"

namespace napkin {
namespace {
constexpr NameTable<StorageType, 5> kStorageNames{{{StorageType::none, "none"},
                                                   {StorageType::fp32, "fp32"},
                                                   {StorageType::fp16, "fp16"},
                                                   {StorageType::bf16, "bf16"},
                                                   {StorageType::fp8, "fp8"}}};
constexpr NameTable<ComputeType, 5> kComputeNames{{{ComputeType::fp32, "fp32"},
                                                   {ComputeType::tf32, "tf32"},
                                                   {ComputeType::fp16, "fp16"},
                                                   {ComputeType::bf16, "bf16"},
                                                   {ComputeType::fp8, "fp8"}}};
} // namespace

std::string_view storageTypeName(StorageType type) {
    return nameIn(kStorageNames, type);
}

std::optional<StorageType> storageTypeFromName(std::string_view name) {
    return valueIn(kStorageNames, name);
}

std::string_view computeTypeName(ComputeType type) {
    return nameIn(kComputeNames, type);
}

std::optional<ComputeType> computeTypeFromName(std::string_view name) {
    return valueIn(kComputeNames, name);
}

} // namespace napkin
