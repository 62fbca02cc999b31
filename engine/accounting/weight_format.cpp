#include "engine/accounting/weight_format.h"

#include "engine/numerics/name_table.h"

namespace napkin {
namespace {
constexpr NameTable<WeightFormat, 6> kWeightFormatNames{{{WeightFormat::fp32, "fp32"},
                                                         {WeightFormat::bf16, "bf16"},
                                                         {WeightFormat::fp16, "fp16"},
                                                         {WeightFormat::fp8, "fp8"},
                                                         {WeightFormat::int8, "int8"},
                                                         {WeightFormat::int4, "int4"}}};
constexpr auto kWeightFormats = valuesIn(kWeightFormatNames);
} // namespace

double weightFormatBits(WeightFormat format) {
    switch (format) {
    case WeightFormat::fp32:
        return 32;
    case WeightFormat::bf16:
    case WeightFormat::fp16:
        return 16;
    case WeightFormat::fp8:
    case WeightFormat::int8:
        return 8;
    case WeightFormat::int4:
        return 4;
    }
    return 0;
}

bool hasGroupScales(WeightFormat format) {
    return format == WeightFormat::int8 || format == WeightFormat::int4;
}

ComputeType weightComputeType(WeightFormat format) {
    switch (format) {
    case WeightFormat::fp32:
        return ComputeType::fp32;
    case WeightFormat::fp16:
        return ComputeType::fp16;
    case WeightFormat::fp8:
        return ComputeType::fp8;
    case WeightFormat::bf16:
    case WeightFormat::int8:
    case WeightFormat::int4:
        return ComputeType::bf16;
    }
    return ComputeType::bf16;
}

std::string_view weightFormatName(WeightFormat format) {
    return nameIn(kWeightFormatNames, format);
}

std::optional<WeightFormat> weightFormatFromName(std::string_view name) {
    return valueIn(kWeightFormatNames, name);
}

std::span<const WeightFormat> allWeightFormats() {
    return kWeightFormats;
}

} // namespace napkin
