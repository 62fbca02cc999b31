// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/bench_dtype.h"

#include "engine/text/name_table.h"

namespace napkin {
namespace {
constexpr NameTable<BenchDtype, 6> kNames{{{BenchDtype::fp32, "fp32"},
                                           {BenchDtype::fp64, "fp64"},
                                           {BenchDtype::bf16, "bf16"},
                                           {BenchDtype::fp16, "fp16"},
                                           {BenchDtype::tf32, "tf32"},
                                           {BenchDtype::fp8e4m3, "fp8-e4m3"}}};
constexpr auto kAll = valuesIn(kNames);
} // namespace

std::string_view benchDtypeName(BenchDtype dtype) {
    return nameIn(kNames, dtype);
}

std::optional<BenchDtype> benchDtypeFromName(std::string_view name) {
    return valueIn(kNames, name);
}

std::string benchDtypeNames() {
    return namesIn(kNames);
}

std::span<const BenchDtype> allBenchDtypes() {
    return kAll;
}

double benchDtypeOutputBytes(BenchDtype dtype) {
    return dtype == BenchDtype::fp8e4m3 ? 2 : benchDtypeBytes(dtype);
}

double benchDtypeBytes(BenchDtype dtype) {
    switch (dtype) {
    case BenchDtype::fp64:
        return 8;
    case BenchDtype::fp32:
    case BenchDtype::tf32:
        return 4;
    case BenchDtype::bf16:
    case BenchDtype::fp16:
        return 2;
    case BenchDtype::fp8e4m3:
        return 1;
    }
    return 0;
}

} // namespace napkin
