// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/steptime/published_profiles.h"

#include "engine/text/ascii_case.h"

#include <array>
#include <string_view>

namespace napkin {
namespace {

struct MamfRow {
    std::string_view gpuId;
    double teraflops;   ///< bf16 maximum achievable matmul TFLOP/s
    double m, n, k;     ///< the best shape mamf-finder found
    std::string_view software;
};

// ml-engineering (Stas Bekman), compute/accelerator/README.md, "Maximum Achievable Matmul FLOPS comparison
// table", BF16 inputs, no sparsity: measured with compute/accelerator/benchmarks/mamf-finder.py.
constexpr std::array kMamf = {
    MamfRow{"A100-SXM", 267.9, 6912, 16384, 2048, "CUDA-12.1"},
    MamfRow{"A100-SXM-40GB", 267.9, 6912, 16384, 2048, "CUDA-12.1 (the A100 SXM row: the same chip)"},
    MamfRow{"A100-PCIe", 256.4, 2304, 5120, 1536, "CUDA-12.1"},
    MamfRow{"H100-SXM", 792.1, 6144, 17920, 2816, "CUDA-12.1"},
    MamfRow{"GH200-96GB", 821.0, 11264, 19712, 1536, "CUDA-12.5"},
    MamfRow{"GH200-144GB", 821.0, 11264, 19712, 1536, "CUDA-12.5 (the GH200 SXM row)"},
    MamfRow{"MI300X", 781.9, 4096, 10240, 4864, "ROCm-6.2"},
};

constexpr std::string_view kMamfSource =
    "maximum achievable matmul FLOPS (mamf-finder.py), ml-engineering compute/accelerator/README.md, "
    "https://github.com/stas00/ml-engineering";

} // namespace

PublishedProfile publishedProfile(const GpuSpec& gpu) {
    for (const MamfRow& row : kMamf) {
        if (!equalsIgnoringCase(row.gpuId, gpu.id))
            continue;
        HardwareProfile p;
        p.device = gpu.id;
        p.deviceName = gpu.name;
        p.source = std::string(kMamfSource) + ", " + std::string(row.software);
        p.gemms.push_back({ComputeType::bf16, row.m, row.n, row.k, row.teraflops * 1e12});
        p.memoryBandwidthBytesPerSecond = gpu.memoryBandwidthBytesPerSecond;
        p.bandwidthSource = "the datasheet's peak (" + gpu.source +
                            "): no achievable figure is published beside the MAMF table, so memory-bound "
                            "ops are a lower bound on their time";
        p.perOpOverheadSeconds = 0;
        p.overheadSource = "not counted: kernel launches are asynchronous and overlap the GPU's work";
        return {p, {}};
    }
    return {std::nullopt, "no published achievable matmul figure for " + gpu.id +
                              " (the MAMF table covers A100, H100 SXM, GH200 and MI300X in bf16); "
                              "give --hardware-profile FILE measured on it (napkin-cli calibrate)"};
}

bool isPublishedProfileSource(std::string_view source) {
    return source.starts_with(kMamfSource);
}

} // namespace napkin
