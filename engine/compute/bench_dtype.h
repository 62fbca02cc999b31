// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The element types a matmul benchmark can ask a backend for.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace napkin {

enum class BenchDtype { fp32, fp64, bf16, fp16, tf32, fp8e4m3 };

/// "fp32", "fp64", "bf16", "fp16", "tf32", "fp8-e4m3" (the napkin-cli spelling).
std::string_view benchDtypeName(BenchDtype dtype);
std::optional<BenchDtype> benchDtypeFromName(std::string_view name);
/// "fp32, fp64, bf16, fp16, tf32, fp8-e4m3" (help texts, error messages).
std::string benchDtypeNames();
std::span<const BenchDtype> allBenchDtypes();
/// Bytes per stored element of A and B (tf32 is stored as fp32: 4).
double benchDtypeBytes(BenchDtype dtype);
/// Bytes per element of C: as A and B, except fp8-e4m3, whose GEMM writes bf16 (2).
double benchDtypeOutputBytes(BenchDtype dtype);

} // namespace napkin
