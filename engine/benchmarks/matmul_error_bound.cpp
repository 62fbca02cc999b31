// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/matmul_error_bound.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace napkin {
namespace {

// Unit roundoffs: fp64, fp32 with round-to-nearest (CPU, cuBLAS's FFMA path), fp32 sums in tensor cores
// (round toward zero: Fasi, Higham, Mikaitis, Pranesh, "Numerical behavior of NVIDIA tensor cores",
// 2021), Hopper's fp8 accumulator (about 14 bits kept: DeepSeek-V3 report §3.3.2), bf16, fp16, and tf32's
// input conversion (10 stored bits, truncation as the worst case).
constexpr double u64 = 0x1p-53, u32 = 0x1p-24, u32TensorCore = 0x1p-23, uFp8Accumulator = 0x1p-14,
                 uBf16 = 0x1p-8, uFp16 = 0x1p-11, uTf32Input = 0x1p-10;
// cuBLASLt promotes fp8 partial sums to fp32 at intervals (CUBLASLT_MATMUL_DESC_FAST_ACCUM off, as napkin
// leaves it); 128 is DeepSeek-V3's promotion interval, taken as the longest run at the accumulator's width.
constexpr long fp8PromotionInterval = 128;

// Both relative errors in turn: (1 + a)(1 + b) − 1.
double combine(double a, double b) {
    return a + b + a * b;
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

} // namespace

std::optional<double> gammaBound(long k, double u) {
    const double ku = static_cast<double>(k) * u;
    if (ku >= 1)
        return std::nullopt;
    return ku / (1 - ku);
}

namespace {
double gammaOrInfinity(long k, double u) {
    return gammaBound(k, u).value_or(HUGE_VAL);
}
} // namespace

MatmulErrorBound matmulErrorBound(const MatmulCase& shape, std::string_view library) {
    const long k = shape.k;
    const std::string kText = "k = " + std::to_string(k);
    const bool cuda = library == "cuda";
    MatmulErrorBound b;
    // 16-bit A, B and C with fp32 sums (cuBLAS, oneDNN): the sum's bound, then C rounded once.
    auto roundedOutput = [&](double uOut, const char* out) {
        const double uSum = cuda ? u32TensorCore : u32;
        b.value = combine(gammaOrInfinity(k, uSum), uOut);
        b.formula =
            std::string("γ_k(") + (cuda ? "2^-23" : "2^-24") + ") + " + out + " output rounding, " + kText;
    };
    switch (shape.dtype) {
    case BenchDtype::fp64:
        b.value = gammaBound(k, u64);
        b.formula = "γ_k(2^-53), " + kText;
        break;
    case BenchDtype::fp32:
        b.value = gammaBound(k, u32);
        b.formula = "γ_k(2^-24), " + kText;
        break;
    case BenchDtype::tf32: {
        const double products = combine(uTf32Input, uTf32Input); // both inputs cut to tf32
        b.value = combine(products, gammaOrInfinity(k, u32TensorCore));
        b.formula = "inputs cut to tf32 (2·2^-10) + γ_k(2^-23), " + kText;
        break;
    }
    case BenchDtype::bf16:
    case BenchDtype::fp16: {
        const bool bf16 = shape.dtype == BenchDtype::bf16;
        if (library == "eigen") { // every product and partial sum rounded to 16 bits
            b.value = gammaBound(k, bf16 ? uBf16 : uFp16);
            b.formula = std::string("γ_k(") + (bf16 ? "2^-8" : "2^-11") + "): 16-bit partial sums, " + kText;
        } else {
            roundedOutput(bf16 ? uBf16 : uFp16, bf16 ? "bf16" : "fp16");
        }
        break;
    }
    case BenchDtype::fp8e4m3: { // exact products; sums of up to 128 at ~14 bits, then fp32; bf16 C
        const long inner = std::min(k, fp8PromotionInterval);
        const long blocks = (k + fp8PromotionInterval - 1) / fp8PromotionInterval;
        b.value = combine(
            combine(gammaOrInfinity(inner, uFp8Accumulator), gammaOrInfinity(blocks, u32TensorCore)), uBf16);
        b.formula = "γ_min(k,128)(2^-14) + γ_ceil(k/128)(2^-23) + bf16 output rounding, " + kText;
        break;
    }
    }
    if (b.value && !std::isfinite(*b.value))
        b.value.reset();
    if (!b.value)
        b.formula += " (k·u ≥ 1: no bound, the result must only be finite)";
    return b;
}

std::string matmulVerificationFailure(double maxRelError, const MatmulErrorBound& bound) {
    if (!std::isfinite(maxRelError))
        return "verification failed: max_rel_error is " + number(maxRelError) +
               " (a sampled entry of C is not a number or infinite)";
    if (bound.value && !(maxRelError <= *bound.value))
        return "verification failed: max_rel_error " + number(maxRelError) + " exceeds the bound " +
               number(*bound.value) + " (" + bound.formula + "): the GEMM's result is wrong";
    return {};
}

} // namespace napkin
