// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/weight_format.h"

#include "engine/text/name_table.h"

#include <string>

namespace napkin {
namespace {
constexpr NameTable<WeightFormat, 9> kWeightFormatNames{{{WeightFormat::fp32, "fp32"},
                                                         {WeightFormat::bf16, "bf16"},
                                                         {WeightFormat::fp16, "fp16"},
                                                         {WeightFormat::fp8, "fp8"},
                                                         {WeightFormat::int8, "int8"},
                                                         {WeightFormat::int4, "int4"},
                                                         {WeightFormat::fp8Block128, "fp8-block128"},
                                                         {WeightFormat::mxfp4, "mxfp4"},
                                                         {WeightFormat::nf4, "nf4"}}};
// One fp32 scale per 128×128 block (DeepSeek-V3's weight_block_size, its weight_scale_inv tensors).
constexpr double kFp8BlockWeights = 128 * 128;
constexpr double kFp8BlockScaleBytes = 4;
// MXFP4 (OCP Microscaling Formats v1.0): a block of 32 E2M1 values shares one E8M0 scale byte.
constexpr double kMxBlock = 32;
std::string num(double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s;
}
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
    case WeightFormat::fp8Block128:
        return 8;
    case WeightFormat::int4:
    case WeightFormat::mxfp4:
    case WeightFormat::nf4:
        return 4;
    }
    return 0;
}

double weightFormatBytes(WeightFormat format, double groupSize) {
    const double bytes = weightFormatBits(format) / 8;
    switch (format) {
    case WeightFormat::int8:
    case WeightFormat::int4:
        return bytes + kGroupScaleBytes / groupSize;
    case WeightFormat::fp8Block128:
        return bytes + kFp8BlockScaleBytes / kFp8BlockWeights;
    case WeightFormat::mxfp4:
        return bytes + 1 / kMxBlock;
    case WeightFormat::nf4: // a 4-bit code, an 8-bit absmax per 64, an fp32 scale per 256 absmaxes
        return bytes + 1.0 / 64 + 4.0 / (64 * 256);
    default:
        return bytes;
    }
}

std::string weightFormatBytesText(WeightFormat format, double groupSize) {
    std::string bytes = num(weightFormatBits(format) / 8);
    switch (format) {
    case WeightFormat::int8:
    case WeightFormat::int4:
        return "(" + bytes + " + " + num(kGroupScaleBytes) + "/" + num(groupSize) + ")";
    case WeightFormat::fp8Block128:
        return "(1 + 4/16384)";
    case WeightFormat::mxfp4:
        return "(0.5 + 1/32)";
    case WeightFormat::nf4:
        return "(0.5 + 1/64 + 4/16384)";
    default:
        return bytes;
    }
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
    case WeightFormat::fp8Block128: // DeepSeek-V3 multiplies in fp8 with the block scales applied
        return ComputeType::fp8;
    case WeightFormat::bf16:
    case WeightFormat::int8:
    case WeightFormat::int4:
    case WeightFormat::mxfp4: // dequantized to bf16 (no FP4 tensor cores on Hopper; Blackwell has them)
    case WeightFormat::nf4:
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
