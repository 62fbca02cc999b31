// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_matmul_rules.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <sstream>

namespace napkin::cuda {
namespace {

std::string ccText(ComputeCapability cc) {
    return std::to_string(cc.major) + "." + std::to_string(cc.minor);
}

} // namespace

std::string dtypeUnsupportedReason(BenchDtype dtype, ComputeCapability cc) {
    const std::string name(benchDtypeName(dtype));
    switch (dtype) {
    case BenchDtype::fp32:
    case BenchDtype::fp64:
    case BenchDtype::fp16:
        return {};
    case BenchDtype::tf32:
    case BenchDtype::bf16:
        if (cc.number() >= 80)
            return {};
        return "--dtype " + name +
               " needs tensor cores of compute capability 8.0 (Ampere) or later; this GPU is " + ccText(cc);
    case BenchDtype::fp8e4m3:
        if (cc.number() >= 89)
            return {};
        return "--dtype fp8-e4m3 needs compute capability 8.9 (Ada) or 9.0 (Hopper) or later; this GPU is " +
               ccText(cc);
    }
    return "--dtype: unknown";
}

std::string shapeProblem(const MatmulCase& s) {
    if (s.m <= 0 || s.n <= 0 || s.k <= 0)
        return "matmul sizes must be positive";
    if (s.m > INT_MAX || s.n > INT_MAX || s.k > INT_MAX)
        return "matmul sizes must fit cuBLAS's int dimensions (at most 2147483647)";
    if (s.dtype == BenchDtype::fp8e4m3 && (s.m % 16 != 0 || s.n % 16 != 0 || s.k % 16 != 0)) {
        std::ostringstream m;
        m << "--dtype fp8-e4m3 needs m, n and k to be multiples of 16 (cuBLASLt fp8); got " << s.m << "x"
          << s.n << "x" << s.k;
        return m.str();
    }
    return {};
}

std::optional<int> fp32LanesPerSm(ComputeCapability cc) {
    const int n = cc.number();
    if (n < 70)
        return std::nullopt;
    if (n <= 80) // Volta 7.0/7.2, Turing 7.5, A100 8.0
        return 64;
    return 128; // GA10x 8.6/8.7, Ada 8.9, Hopper 9.0, Blackwell 10.x/12.x
}

std::string catalogIdForDevice(std::string_view deviceName) {
    return catalogIdForDeviceName(deviceName); // engine/hardware: the app matches sweeps to roofs with it too
}

DeviceInfo assembleDeviceInfo(const CudaDeviceFacts& f, const GpuCatalog& catalog) {
    DeviceInfo d;
    d.backend = "cuda";
    d.name = f.name;
    d.cores = f.smCount;
    d.threads = 0;
    d.simd = "sm_" + std::to_string(f.cc.number());
    if (f.clockHz > 0)
        d.clockHz = f.clockHz;
    if (const auto lanes = fp32LanesPerSm(f.cc); lanes && f.clockHz > 0 && f.smCount > 0) {
        d.specFp32FlopsPerSecond = f.smCount * static_cast<double>(*lanes) * 2.0 * f.clockHz;
        std::ostringstream s;
        s << f.smCount << " SMs · " << *lanes << " FP32 lanes · 2 FLOP/FMA · " << f.clockHz / 1e9 << " GHz";
        d.specFp32Formula = s.str();
    } else {
        d.specFp32Formula = "unknown: FP32 lanes per SM not known for compute capability " + ccText(f.cc);
    }
    const std::string id = catalogIdForDevice(f.name);
    const GpuSpec* spec = id.empty() ? nullptr : catalog.find(id);
    if (!spec) {
        d.promisedBasis =
            "none: '" + f.name + "' is not in the GPU catalog, so no datasheet peak (MFU left out)";
        return d;
    }
    auto promise = [&](BenchDtype dtype, double peak) {
        if (peak > 0)
            d.promisedFlopsPerSecond[std::string(benchDtypeName(dtype))] = peak;
    };
    promise(BenchDtype::fp32, spec->densePeakFp32);
    promise(BenchDtype::tf32, spec->densePeakTf32);
    promise(BenchDtype::fp16, spec->densePeakFp16);
    promise(BenchDtype::bf16, spec->densePeakBf16);
    promise(BenchDtype::fp8e4m3, spec->densePeakFp8);
    d.promisedBasis =
        "datasheet dense peaks of catalog entry " + spec->id + " (" + spec->name + "): " + spec->source;
    return d;
}

std::optional<std::size_t> fastestIndex(std::span<const double> seconds) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < seconds.size(); ++i)
        if (std::isfinite(seconds[i]) && seconds[i] > 0 && (!best || seconds[i] < seconds[*best]))
            best = i;
    return best;
}

} // namespace napkin::cuda
