// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The formats a served model's weights are stored in: floats at their width, integers with one fp16
// scale per group of G weights (as GPTQ, AWQ and llama.cpp's Q4/Q8 formats store them), and the formats
// checkpoints ship in: fp8 with one fp32 scale per 128×128 block (DeepSeek-V3/R1, Kimi K2), MXFP4 (OCP
// Microscaling: 4-bit E2M1 values with one 8-bit E8M0 exponent per 32; gpt-oss's experts) and
// bitsandbytes NF4 with double quantization (QLoRA).
#include "engine/numerics/storage_type.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace napkin {

enum class WeightFormat { fp32, bf16, fp16, fp8, int8, int4, fp8Block128, mxfp4, nf4 };

/// Bits of one stored weight, scales not counted: 32, 16, 16, 8, 8, 4, 8, 4, 4.
double weightFormatBits(WeightFormat format);
/// Bytes of one stored weight with its share of the scales: int8/int4 bits/8 + 2/G; fp8-block128
/// 1 + 4/(128·128); mxfp4 0.5 + 1/32; nf4 0.5 + 1/64 + 4/(64·256) (Dettmers et al. 2023); the rest bits/8.
double weightFormatBytes(WeightFormat format, double groupSize);
/// The same as a formula: "(0.5 + 2/128)", "(1 + 4/16384)", "0.5 + 1/32", "2".
std::string weightFormatBytesText(WeightFormat format, double groupSize);
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
