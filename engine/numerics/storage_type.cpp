#include "engine/numerics/storage_type.h"

namespace napkin {

std::string_view storageTypeName(StorageType type) {
    switch (type) {
    case StorageType::fp32: return "fp32";
    case StorageType::fp16: return "fp16";
    case StorageType::bf16: return "bf16";
    case StorageType::fp8: return "fp8";
    case StorageType::none: return "none";
    }
    return "none";
}

std::string_view computeTypeName(ComputeType type) {
    switch (type) {
    case ComputeType::fp32: return "fp32";
    case ComputeType::tf32: return "tf32";
    case ComputeType::fp16: return "fp16";
    case ComputeType::bf16: return "bf16";
    case ComputeType::fp8: return "fp8";
    }
    return "fp32";
}

std::optional<ComputeType> computeTypeFromName(std::string_view name) {
    for (ComputeType t : {ComputeType::fp32, ComputeType::tf32, ComputeType::fp16, ComputeType::bf16,
                          ComputeType::fp8})
        if (computeTypeName(t) == name)
            return t;
    return std::nullopt;
}

} // namespace napkin
