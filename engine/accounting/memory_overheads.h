// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The overhead ledger: what a real PyTorch run holds on each GPU beside the tensors the memory ledger
// and the step's timeline count — the CUDA context, cuBLAS/cuBLASLt workspaces, the caching allocator's
// rounding and a fragmentation allowance, NCCL's buffers, fp8 recipes' extra copies — each line with
// its formula and source and a switch, and the card's usable memory (what the driver reports, not the
// datasheet's decimal GB). "Fits" is judged on the step's peak plus the counted lines against it; the
// datasheet basis (the lecture's: 80 GB = 80e9 bytes, no overheads) counts none.
#include "engine/models/input_error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct AccountingInput;
struct AccountingResult;
struct GpuSpec;

/// What "fits" is judged against. datasheet: the datasheet's capacity, no overheads (the lecture's
/// convention). usable: what the driver reports (the catalog's driverMemoryBytes, else the datasheet
/// figure, said so), minus nothing, with the step's peak plus the enabled overhead lines.
enum class MemoryBasis { datasheet, usable };
std::string_view memoryBasisName(MemoryBasis basis); ///< "datasheet", "usable"
std::optional<MemoryBasis> memoryBasisFromName(std::string_view name);

/// The user's settings of the overhead ledger (every page and command share them).
struct MemoryOverheadSettings {
    MemoryBasis basis = MemoryBasis::usable;
    bool cudaContext = true;       ///< the CUDA context line
    bool libraryWorkspaces = true; ///< the cuBLAS and cuBLASLt workspace lines
    bool allocatorRounding = true; ///< the caching allocator's 512-byte rounding of the saved tensors
    bool ncclBuffers = true;       ///< NCCL's buffers, one set per communicator of the layout
    bool fp8Copies = true;         ///< an fp8 recipe's weight copies and amax histories
    /// Fraction of the step's allocations the allocator holds beyond them (cached-but-free blocks, split
    /// segments), in [0, 1). 0 by default: PyTorch documents no typical figure; a run's
    /// memory_reserved / memory_allocated − 1 at its peak is the user's own.
    double fragmentation = 0;
    int cudaMajor = 12; ///< the CUDA major version whose context figure applies
    /// The user's own measured context (nvidia-smi's used memory of a process that only initialised
    /// CUDA and PyTorch), replacing the table; unset: the table's figure, or "not measured".
    std::optional<double> cudaContextBytes;
    /// NCCL channels per communicator. Unset: NCCL picks them from the topology at run time
    /// (NCCL_DEBUG=INFO prints "N coll channels"), and the line is "not counted".
    std::optional<double> ncclChannels;
    double ncclBufferBytes = 4194304; ///< NCCL_BUFFSIZE: 4 MiB by default (NCCL init.cc, DEFAULT_BUFFSIZE)
    bool operator==(const MemoryOverheadSettings&) const = default;
};

/// The settings a page or script gets when it asks for the lecture's convention.
MemoryOverheadSettings datasheetOverheads();

/// Checks the settings: fragmentation in [0, 1), CUDA major 1…99, a context of 0…1e12 bytes, 1…1024 NCCL
/// channels, an NCCL buffer of 1…1e10 bytes. The field names the command-line option ("fragmentation").
InputError validateOverheads(const MemoryOverheadSettings& settings);

/// The switches as text: "all", "none", or the comma list of those on, in the order
/// context,workspaces,rounding,nccl,fp8 (what --overheads takes and a scenario file stores).
std::string overheadSwitchesText(const MemoryOverheadSettings& settings);
/// Sets the five switches from such a text; false (and `settings` unchanged) for an unknown name or a
/// name given twice.
bool setOverheadSwitches(std::string_view text, MemoryOverheadSettings& settings);

enum class OverheadKind {
    cudaContext,
    cublasWorkspace,
    cublasLtWorkspace,
    allocatorRounding,
    fragmentation,
    ncclBuffers,
    fp8WeightCopies,
    fp8AmaxHistory
};
std::string_view overheadKindName(OverheadKind kind); ///< "cuda_context", "cublas_workspace", …

struct OverheadLine {
    OverheadKind kind = OverheadKind::cudaContext;
    std::string label;    ///< "CUDA context"
    double bytes = 0;     ///< what the line holds (0 when not measured or not applicable)
    bool enabled = true;  ///< its switch
    bool counted = false; ///< enabled, in the usable basis, and known: part of the prediction
    bool measured = true; ///< false: no cited or measured figure, "not measured", counts 0
    std::string formula;  ///< how the bytes are reached
    std::string source;   ///< where the figure comes from
};

struct MemoryOverheads {
    MemoryBasis basis = MemoryBasis::usable;
    std::vector<OverheadLine> lines; ///< empty in a search's probe (formula_text.h)
    double nominalBytes = 0;         ///< the datasheet's capacity
    double usableBytes = 0;          ///< what fits is judged against
    std::string usableSource;        ///< driver-reported with its source, or why the datasheet figure
    double fixedBytes = 0;           ///< counted lines that do not grow with the batch
    double roundingBytes = 0;        ///< counted allocator rounding of the saved tensors
    double fragmentationBytes = 0;   ///< counted: fragmentation × (peak + rounding)
    double totalBytes = 0;           ///< every counted line
};

/// The ledger for `input` on `gpu`, from accountPeak()'s memory and peak (`result`: its peakMemory,
/// parameters, parametersOnGpu and activations). A few arithmetic operations in a search's probe; the
/// lines with their texts only when formulasWanted().
MemoryOverheads memoryOverheads(const AccountingInput& input, const GpuSpec& gpu,
                                const AccountingResult& result);

/// The room the model states may fill at the optimizer step, where no activation is held:
/// (usable − fixed overheads) / (1 + fragmentation); the datasheet capacity in the datasheet basis.
double modelStateBudgetBytes(const MemoryOverheads& overheads, double fragmentation);

/// NVIDIA compute capability (major·10 + minor: 90 for the H100) of a catalog GPU, from NVIDIA's CUDA
/// GPUs table; nullopt for a part Napkin's table does not hold.
std::optional<int> computeCapability(std::string_view gpuId);

} // namespace napkin
