#include "engine/compute/bench_dtype.h"

#include <array>

namespace napkin {
namespace {
constexpr std::array kAll{BenchDtype::fp32, BenchDtype::fp64, BenchDtype::bf16,
                          BenchDtype::fp16, BenchDtype::tf32, BenchDtype::fp8e4m3};
} // namespace

std::string_view benchDtypeName(BenchDtype dtype) {
    switch (dtype) {
    case BenchDtype::fp32: return "fp32";
    case BenchDtype::fp64: return "fp64";
    case BenchDtype::bf16: return "bf16";
    case BenchDtype::fp16: return "fp16";
    case BenchDtype::tf32: return "tf32";
    case BenchDtype::fp8e4m3: return "fp8-e4m3";
    }
    return "?";
}

std::optional<BenchDtype> benchDtypeFromName(std::string_view name) {
    for (BenchDtype d : kAll)
        if (benchDtypeName(d) == name)
            return d;
    return std::nullopt;
}

std::span<const BenchDtype> allBenchDtypes() { return kAll; }

double benchDtypeBytes(BenchDtype dtype) {
    switch (dtype) {
    case BenchDtype::fp64: return 8;
    case BenchDtype::fp32:
    case BenchDtype::tf32: return 4;
    case BenchDtype::bf16:
    case BenchDtype::fp16: return 2;
    case BenchDtype::fp8e4m3: return 1;
    }
    return 0;
}

} // namespace napkin
