#pragma once
// The formats a served model's weights are stored in: floats at their width, integers with one fp16
// scale per group of G weights (as GPTQ, AWQ and llama.cpp's Q4/Q8 formats store them).
#include "engine/numerics/storage_type.h"

#include <optional>
#include <span>
#include <string_view>

namespace napkin {

enum class WeightFormat { fp32, bf16, fp16, fp8, int8, int4 };

/// Bits of one stored weight, scales not counted: 32, 16, 16, 8, 8, 4.
double weightFormatBits(WeightFormat format);
/// int8 and int4 carry a scale per group of weights; the float formats none.
bool hasGroupScales(WeightFormat format);
/// Bytes of one group scale (an fp16 number).
constexpr double kGroupScaleBytes = 2.0;
/// The arithmetic the matmuls run in: the format itself for the floats; bf16 for int8 and int4
/// (weight-only quantization: weights are dequantized to bf16 before the multiply).
ComputeType weightComputeType(WeightFormat format);

std::string_view weightFormatName(WeightFormat format);
std::optional<WeightFormat> weightFormatFromName(std::string_view name);
std::span<const WeightFormat> allWeightFormats();

} // namespace napkin
