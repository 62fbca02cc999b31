// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/cuda_figures.h"

#include "engine/accounting/memory_overheads.h"
#include "engine/text/ascii_case.h"

#include <array>

namespace napkin {
namespace {

constexpr double kMiB = 1048576;

// Compute capabilities, from NVIDIA's "CUDA GPUs – Compute Capability" table
// (developer.nvidia.com/cuda-gpus): Hopper 9.0, Ampere A100 8.0, A10 8.6, Ada 8.9, Blackwell B200 10.0,
// Turing T4 7.5, Volta V100 7.0.
struct Capability {
    std::string_view id;
    int capability;
};
constexpr std::array kCapabilities{
    Capability{"H100-SXM", 90},  Capability{"H100-PCIe", 90}, Capability{"H100-NVL", 90},
    Capability{"H200", 90},      Capability{"GH200", 90},     Capability{"A100-SXM", 80},
    Capability{"A100-PCIe", 80}, Capability{"A100-40GB", 80}, Capability{"A10", 86},
    Capability{"A10G", 86},      Capability{"L40S", 89},      Capability{"L40", 89},
    Capability{"L4", 89},        Capability{"RTX-4090", 89},  Capability{"RTX-6000-Ada", 89},
    Capability{"RTX-3090", 86},  Capability{"B200", 100},     Capability{"T4", 75},
    Capability{"V100", 70}};

constexpr std::array kContextFigures{
    CudaContextFigure{"RTX-6000-Ada", 13, 426 * kMiB,
                  "unslothai/unsloth-zoo PR #1053: torch.cuda.mem_get_info(0) alone, PyTorch 2.10.0+cu130, "
                  "NVIDIA RTX 6000 Ada: nvidia-smi 426 MiB, torch allocated/reserved 0"},
    CudaContextFigure{"H100-SXM", 13, 612 * kMiB,
                  "napkin's GPU run, 2026-11-27 (scripts/gpu-bench.sh, step cuda-context): PyTorch 2.11.0+cu130, "
                  "driver 580.159.04, NVIDIA H100 80GB HBM3: nvidia-smi 612 MiB for a process that ran "
                  "torch.zeros(1, device='cuda') (2 MiB of it the caching allocator's first segment)"}};

} // namespace

const CudaContextFigure* measuredCudaContext(std::string_view gpuId, int cudaMajor) {
    for (const CudaContextFigure& f : kContextFigures)
        if (equalsIgnoringCase(f.id, gpuId) && f.cudaMajor == cudaMajor)
            return &f;
    return nullptr;
}

std::optional<int> computeCapability(std::string_view gpuId) {
    for (const Capability& c : kCapabilities)
        if (equalsIgnoringCase(c.id, gpuId))
            return c.capability;
    return std::nullopt;
}

} // namespace napkin
