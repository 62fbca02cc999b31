// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/calibration_run.h"

#include "engine/benchmarks/trainer_loop_rates.h"

#include "engine/benchmarks/matmul_sweep.h"
#include "engine/benchmarks/memory_bandwidth_run.h"
#include "engine/compute/bench_compute_type.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>

#include <unistd.h>

namespace napkin {

std::vector<MatmulCase> calibrationShapes(const std::string& device) {
    if (device == "cpu")
        return {{128, 128, 128}, {256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024}, {2048, 768, 768}};
    return {
        {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 3072, 768}};
}

std::optional<CalibrationRun> runCalibration(BenchmarkBackend& backend, const CalibrationOptions& options,
                                             std::string* whyNot, const ProgressCallback& progress) {
    CalibrationRun run;
    HardwareProfile& p = run.profile;
    const DeviceInfo device = backend.deviceInfo();
    p.deviceName = device.name;
    if (options.device == "cpu") {
        p.device = "this-cpu";
    } else {
        p.device = catalogIdForDeviceName(device.name);
        if (p.device.empty())
            p.device = device.name;
    }
    MatmulRunOptions matmul;
    matmul.repeats = options.repeats;
    const std::vector<MatmulCase> shapes =
        options.shapes.empty() ? calibrationShapes(options.device) : options.shapes;
    std::vector<MatmulCase> cases;
    for (const BenchDtype dtype : options.dtypes) {
        if (std::string why = backend.unsupportedReason(dtype);
            !why.empty() || !benchDtypeComputeType(dtype)) {
            run.skipped.push_back(std::string(benchDtypeName(dtype)) + ": " +
                                  (why.empty() ? "no recipe computes in it" : why));
            continue;
        }
        for (MatmulCase shape : shapes) {
            shape.dtype = dtype;
            cases.push_back(shape);
        }
    }
    // A 1×1×1 GEMM does no work worth the name: its time is the backend's cost of dispatching one op.
    cases.push_back({1, 1, 1, BenchDtype::fp32});
    const MatmulSweep sweep = runMatmulSweep(backend, cases, matmul, progress);
    for (const MatmulResult& r : sweep.results) {
        if (!r.ok) {
            run.skipped.push_back(std::to_string(r.shape.m) + "×" + std::to_string(r.shape.n) + "×" +
                                  std::to_string(r.shape.k) + " " +
                                  std::string(benchDtypeName(r.shape.dtype)) + ": " + r.error);
            continue;
        }
        if (r.shape.m == 1 && r.shape.n == 1 && r.shape.k == 1) {
            p.perOpOverheadSeconds = r.timing.medianSeconds;
            continue;
        }
        p.gemms.push_back({benchDtypeComputeType(r.shape.dtype).value_or(ComputeType::fp32),
                           static_cast<double>(r.shape.m), static_cast<double>(r.shape.n),
                           static_cast<double>(r.shape.k), r.flopsPerSecond});
    }
    if (p.gemms.empty()) {
        *whyNot =
            "no GEMM ran: " + (run.skipped.empty() ? std::string("none asked for") : run.skipped.front());
        return std::nullopt;
    }
    MemoryBandwidthOptions bandwidth;
    bandwidth.repeats = options.repeats;
    bandwidth.threads = device.threads;
    bandwidth.bytesPerArray = options.bandwidthBytesPerArray;
    const std::optional<MemoryBandwidthResult> measured =
        runMemoryBandwidth(options.device, bandwidth, whyNot);
    if (!measured)
        return std::nullopt;
    p.memoryBandwidthBytesPerSecond = measured->bytesPerSecond;
    p.bandwidthSource = "napkin-cli bench memory: " + measured->method + " over " +
                        formatBytes(static_cast<double>(measured->bytesPerArray)) + " arrays (" +
                        measured->byteConvention + ")";
    p.overheadSource = "a 1×1×1 fp32 GEMM on the " + device.backend + " backend: one op's dispatch";
    if (options.device == "cpu") { // the CPU trainers' host loops; a GPU's draw and update are its kernels
        p.threads = device.threads;
        constexpr std::size_t kLoopElements = std::size_t{1} << 20; // a 1024² layer's parameters
        p.normalDrawsPerSecond = measureNormalDrawsPerSecond(kLoopElements, options.repeats);
        p.updates = measureCruncherUpdates(kLoopElements, options.repeats);
    }
    p.source =
        "napkin-cli calibrate: Napkin's " + device.backend + " backend on " + device.name + ", " +
        std::to_string(device.threads) + " thread(s); GEMMs by the matmul sweep (median of " +
        std::to_string(options.repeats) + " samples after warm-up, verified)" +
        (options.device == "cpu" ? "; the trainers' batch draw and optimizer updates timed as they run "
                                   "them (one thread, 2^20 elements)"
                                 : "");
    return run;
}

GpuSpec cpuCatalogEntry(const HardwareProfile& profile) {
    GpuSpec gpu;
    gpu.id = profile.device;
    gpu.name = profile.deviceName;
    gpu.kind = "unified";
    gpu.source = profile.source + "; dense peaks: the best GEMM rate measured per dtype; memory: the RAM";
    gpu.memoryBytes =
        static_cast<double>(sysconf(_SC_PAGE_SIZE)) * static_cast<double>(sysconf(_SC_PHYS_PAGES));
    gpu.memoryBandwidthBytesPerSecond = profile.memoryBandwidthBytesPerSecond;
    gpu.peaksNotGiven = ~0u;
    auto best = [&](ComputeType type) {
        double rate = 0;
        for (const GemmRate& g : profile.gemms)
            if (g.dtype == type)
                rate = std::max(rate, g.flopsPerSecond);
        if (rate > 0)
            gpu.peaksNotGiven &= ~(1u << static_cast<unsigned>(type));
        return rate;
    };
    gpu.densePeakFp32 = best(ComputeType::fp32);
    gpu.densePeakTf32 = best(ComputeType::tf32);
    gpu.densePeakFp16 = best(ComputeType::fp16);
    gpu.densePeakBf16 = best(ComputeType::bf16);
    gpu.densePeakFp8 = best(ComputeType::fp8);
    return gpu;
}

} // namespace napkin
