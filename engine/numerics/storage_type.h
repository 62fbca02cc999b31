// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Element types a tensor can be stored in, and what each costs per element.
#include <optional>
#include <string_view>

namespace napkin {

enum class StorageType { none, fp32, fp16, bf16, fp8 };

/// Bytes per element: fp32 4, fp16 2, bf16 2, fp8 1, none 0.
constexpr double bytesPerElement(StorageType type) {
    switch (type) {
    case StorageType::fp32:
        return 4.0;
    case StorageType::fp16:
    case StorageType::bf16:
        return 2.0;
    case StorageType::fp8:
        return 1.0;
    case StorageType::none:
        return 0.0;
    }
    return 0.0;
}

std::string_view storageTypeName(StorageType type);
std::optional<StorageType> storageTypeFromName(std::string_view name);

/// Arithmetic the matmuls run in; selects which dense peak of a GPU applies.
enum class ComputeType { fp32, tf32, fp16, bf16, fp8 };

std::string_view computeTypeName(ComputeType type);
std::optional<ComputeType> computeTypeFromName(std::string_view name);

} // namespace napkin
