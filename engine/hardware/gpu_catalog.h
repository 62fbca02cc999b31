// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GPUs and what their datasheets promise. The built-in list lives in resources/gpu_catalog.json
// (compiled in); users can add their own in the same format.
#include "engine/numerics/storage_type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct GpuSpec {
    std::string id;                           ///< short key used on the command line, e.g. "H100-SXM"
    std::string name;                         ///< marketing name
    double memoryBytes = 0;                   ///< datasheet capacity, decimal (80 GB = 80e9)
    double memoryBandwidthBytesPerSecond = 0; ///< datasheet HBM/GDDR bandwidth
    double densePeakFp32 = 0, densePeakTf32 = 0, densePeakFp16 = 0, densePeakBf16 = 0, densePeakFp8 = 0;
    std::string source; ///< where each number came from
    /// Host link (PCIe) bandwidth per direction that the datasheet promises; absent where it gives none.
    std::optional<double> hostLinkBytesPerSecondPerDirection;
    std::string hostLinkSource; ///< where that figure came from; empty when absent
    /// GPU-to-GPU link within a node (NVLink, or PCIe peer-to-peer where there is none), bytes per second
    /// per direction per GPU; absent where the catalog gives none.
    std::optional<double> gpuLinkBytesPerSecondPerDirection;
    double gpuLinkGpus = 1;    ///< GPUs that link joins: 8 in an HGX/DGX node, 2 for a bridged pair
    std::string gpuLinkName;   ///< "NVLink 4", "PCIe Gen4"
    std::string gpuLinkSource; ///< where the figure came from; empty when absent
    /// The network between nodes, bytes per second per direction per GPU (the reference system's NIC
    /// per GPU, e.g. DGX H100's one 400 Gb/s ConnectX-7 per GPU = 50e9); absent where none is given.
    std::optional<double> networkBytesPerSecondPerDirection;
    std::string networkSource; ///< where the figure came from; empty when absent
    /// What the driver reports as the card's memory (CUDA's totalGlobalMem, nvidia-smi's "Total"), in
    /// bytes: an "80 GB" H100 SXM reports 81,559 MiB = 85.52e9 bytes, not 80e9. Absent where no source
    /// gives it; never derived from the datasheet figure.
    std::optional<double> driverMemoryBytes;
    std::string driverMemorySource; ///< where that figure came from; empty when absent

    // What the part is, and what it can and cannot do (gpu_capabilities.h reads these).
    std::string vendor;            ///< "NVIDIA", "AMD", "Google", "Apple"; empty when not given
    std::string kind = "gpu";      ///< "gpu", "tpu", or "unified" (Apple: CPU and GPU share one memory)
    std::string architecture;      ///< "Turing", "Hopper", "CDNA 3", "TPU v5e"; empty when not given
    std::string computeCapability; ///< CUDA compute capability "7.5"; empty for other vendors / not given
    std::string vendorArch;        ///< the vendor's target name where not CUDA, e.g. AMD's "gfx942"
    std::string architectureSource;
    /// Bit i set: no source gives the dense peak of ComputeType(i), so it reads 0 without meaning "none".
    unsigned peaksNotGiven = 0;
    /// Further dense peaks, per second: absent where no source gives one, 0 where the part has no such
    /// path. int8 counts integer operations.
    std::optional<double> densePeakFp64, densePeakInt8, densePeakFp4;
    std::string extraPeaksSource;   ///< where fp64/int8/fp4 came from when not from `source`
    std::optional<double> tdpWatts; ///< the board's thermal design (maximum) power, watts
    std::string tdpSource;
    std::string hostLinkName; ///< "PCIe Gen3 x16", where a source names it
    std::string interconnect; ///< what links the parts where no per-direction figure fits: TPU ICI
    std::string interconnectSource;
    /// Apple: the whole unified memory; `memoryBytes` is then the GPU's usable share (macOS's default
    /// wired limit, which `sudo sysctl iogpu.wired_limit_mb=N` raises).
    std::optional<double> unifiedMemoryBytes;
    std::string unifiedMemorySource;
    std::string memoryNote; ///< how `memoryBytes` relates to the datasheet where it is not the datasheet's
};

/// Whether a source gives the dense peak of `compute` for this part (0 then means "no such path").
inline bool densePeakGiven(const GpuSpec& gpu, ComputeType compute) {
    return (gpu.peaksNotGiven & (1u << static_cast<unsigned>(compute))) == 0;
}

/// Dense peak FLOP/s for matmuls in the given arithmetic; 0 when the GPU has no such path.
double densePeakFlopsPerSecond(const GpuSpec& gpu, ComputeType compute);
/// Sparse (2:4 structured sparsity) peak: exactly twice dense. Shown as "sparse", never used for MFU.
inline double sparsePeakFlopsPerSecond(const GpuSpec& gpu, ComputeType compute) {
    return 2.0 * densePeakFlopsPerSecond(gpu, compute);
}

/// The catalog id for a CUDA device name as the driver reports it ("NVIDIA H100 80GB HBM3" → "H100-SXM"),
/// or empty when unknown.
std::string catalogIdForDeviceName(std::string_view deviceName);

class GpuCatalog {
public:
    /// The compiled-in catalog (resources/gpu_catalog.json).
    static const GpuCatalog& builtIn();

    /// Adds (or replaces, by id) GPUs from JSON text in the catalog's format. Returns an error message
    /// naming the entry and field at fault, or an empty string; on error nothing is added.
    std::string addFromJson(std::string_view jsonText);
    /// As addFromJson, from the file at `path`: a regular file of at most kMaxFileBytes (checked before it
    /// is read, so /dev/zero is refused at once). The error names the file.
    std::string addFromFile(const std::string& path);
    /// Largest catalog file read: 1 MiB, about 100 times the built-in catalog.
    static constexpr std::uint64_t kMaxFileBytes = 1 << 20;

    /// Case-insensitive lookup by id; nullptr when unknown.
    const GpuSpec* find(std::string_view id) const;
    const std::vector<GpuSpec>& gpus() const { return m_gpus; }
    /// "H100-SXM, H100-PCIe, ..." for error messages.
    std::string idList() const;

private:
    std::vector<GpuSpec> m_gpus;
};

} // namespace napkin
