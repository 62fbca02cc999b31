// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/memory_overheads.h"

#include "engine/accounting/accounting.h"
#include "engine/accounting/caching_allocator.h"
#include "engine/accounting/cuda_figures.h"
#include "engine/accounting/memory_overhead_knobs.h"
#include "engine/text/ascii_case.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"

#include <array>
#include <cmath>

namespace napkin {
namespace {

using namespace cuda_figures;

std::string n(double v) {
    return formatNumber(v);
}

// A training step runs matmuls on two threads, each with its own cuBLAS handle from its thread-local pool
// window: forward on the Python thread, backward on autograd's device thread.
constexpr double kMatmulThreads = 2;
// What the NCCL line counts and leaves out, after its figure.
constexpr const char* kNcclSimpleBufferNote =
    " B (the Simple protocol's buffer, one per ring channel; LL, LL128, "
    "tree and NVLS buffers not counted: a lower bound)";

// TransformerEngine's DelayedScaling recipe: amax_history_len = 1024 by default (TE common API docs,
// transformer_engine.common.recipe.DelayedScaling, 1.x and 2.x), one fp32 history per quantized tensor.
constexpr double kAmaxHistoryLength = 1024;

OverheadLine line(OverheadKind kind, bool enabled) {
    OverheadLine l;
    l.kind = kind;
    l.enabled = enabled;
    return l;
}

} // namespace

std::string_view memoryBasisName(MemoryBasis basis) {
    return basis == MemoryBasis::datasheet ? "datasheet" : "usable";
}

std::optional<MemoryBasis> memoryBasisFromName(std::string_view name) {
    if (equalsIgnoringCase(name, "datasheet"))
        return MemoryBasis::datasheet;
    if (equalsIgnoringCase(name, "usable"))
        return MemoryBasis::usable;
    return std::nullopt;
}

MemoryOverheadSettings datasheetOverheads() {
    MemoryOverheadSettings s;
    s.basis = MemoryBasis::datasheet;
    return s;
}

std::string_view overheadKindName(OverheadKind kind) {
    switch (kind) {
    case OverheadKind::cudaContext:
        return "cuda_context";
    case OverheadKind::cublasWorkspace:
        return "cublas_workspace";
    case OverheadKind::cublasLtWorkspace:
        return "cublaslt_workspace";
    case OverheadKind::allocatorRounding:
        return "allocator_rounding";
    case OverheadKind::fragmentation:
        return "fragmentation";
    case OverheadKind::ncclBuffers:
        return "nccl_buffers";
    case OverheadKind::fp8WeightCopies:
        return "fp8_weight_copies";
    case OverheadKind::fp8AmaxHistory:
        return "fp8_amax_history";
    }
    return "";
}

namespace {

struct SwitchName {
    std::string_view name;
    bool MemoryOverheadSettings::*flag;
};
constexpr std::array kSwitches{SwitchName{"context", &MemoryOverheadSettings::cudaContext},
                               SwitchName{"workspaces", &MemoryOverheadSettings::libraryWorkspaces},
                               SwitchName{"rounding", &MemoryOverheadSettings::allocatorRounding},
                               SwitchName{"nccl", &MemoryOverheadSettings::ncclBuffers},
                               SwitchName{"fp8", &MemoryOverheadSettings::fp8Copies}};

} // namespace

InputError validateOverheads(const MemoryOverheadSettings& s) {
    // The ranges and words of the knobs' table (memory_overhead_knobs.h).
    auto [field, message] = checkNumberKnobs(memoryOverheadKnobs(), s);
    return {std::move(field), std::move(message)};
}

std::string overheadSwitchesText(const MemoryOverheadSettings& s) {
    std::string text;
    int on = 0;
    for (const SwitchName& sw : kSwitches)
        if (s.*sw.flag) {
            text += (on++ ? "," : "") + std::string(sw.name);
        }
    return on == int(kSwitches.size()) ? "all" : on == 0 ? "none" : text;
}

bool setOverheadSwitches(std::string_view text, MemoryOverheadSettings& settings) {
    MemoryOverheadSettings s = settings;
    if (equalsIgnoringCase(text, "all") || equalsIgnoringCase(text, "none")) {
        const bool on = equalsIgnoringCase(text, "all");
        for (const SwitchName& sw : kSwitches)
            s.*sw.flag = on;
        settings = s;
        return true;
    }
    for (const SwitchName& sw : kSwitches)
        s.*sw.flag = false;
    std::array<bool, kSwitches.size()> seen{};
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view word = text.substr(0, comma);
        bool known = false;
        for (std::size_t i = 0; i < kSwitches.size(); ++i)
            if (equalsIgnoringCase(word, kSwitches[i].name)) {
                if (seen[i])
                    return false;
                seen[i] = known = true;
                s.*kSwitches[i].flag = true;
            }
        if (!known)
            return false;
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
    settings = s;
    return true;
}

double modelStateBudgetBytes(const MemoryOverheads& o, double fragmentation) {
    if (o.basis == MemoryBasis::datasheet)
        return o.usableBytes;
    return std::max(0.0, o.usableBytes - o.fixedBytes) / (1 + fragmentation);
}

MemoryOverheads memoryOverheads(const AccountingInput& in, const GpuSpec& gpu, const AccountingResult& r) {
    const MemoryOverheadSettings& s = in.overheads;
    const bool usable = s.basis == MemoryBasis::usable;
    const bool texts = formulasWanted();
    MemoryOverheads o;
    o.basis = s.basis;
    o.nominalBytes = gpu.memoryBytes;
    o.usableBytes = usable && gpu.driverMemoryBytes ? *gpu.driverMemoryBytes : gpu.memoryBytes;
    if (texts)
        o.usableSource = !usable ? concat({"datasheet basis: ", gpu.id, "'s datasheet ", n(gpu.memoryBytes),
                                           " B, no overheads (the lecture's convention)"})
                         : gpu.driverMemoryBytes
                             ? concat({"what the driver reports for ", gpu.id,
                                       " (CUDA totalGlobalMem, nvidia-smi): ", n(*gpu.driverMemoryBytes),
                                       " B; ", gpu.driverMemorySource})
                             : concat({"the datasheet's ", n(gpu.memoryBytes),
                                       " B: the catalog has no driver-reported figure for ", gpu.id});

    // A search probes the same GPU again and again: one comparison instead of the table's.
    thread_local std::string lastGpu;
    thread_local std::optional<int> lastCapability;
    if (gpu.id != lastGpu) {
        lastGpu = gpu.id;
        lastCapability = computeCapability(gpu.id);
    }
    const std::optional<int> capability = lastCapability;
    const double layersHere = in.model.kind == ModelKind::transformer
                                  ? stageLayers(in.parallel, in.model.layers,
                                                r.memoryStage.value_or(PipelineStage::first))
                              : in.model.kind == ModelKind::cruncher  ? in.model.layers
                                                                      : 0;
    auto add = [&](OverheadLine&& l, bool batchDependent) {
        l.counted = usable && l.enabled && l.measured;
        if (l.counted) {
            o.totalBytes += l.bytes;
            if (!batchDependent)
                o.fixedBytes += l.bytes;
        }
        if (texts)
            o.lines.push_back(std::move(l));
    };

    // CUDA context.
    {
        OverheadLine l = line(OverheadKind::cudaContext, s.cudaContext);
        const CudaContextFigure* figure = measuredCudaContext(gpu.id, s.cudaMajor);
        if (s.cudaContextBytes) {
            l.bytes = *s.cudaContextBytes;
            if (texts) {
                l.formula = "your measured figure: " + n(l.bytes) + " B";
                l.source = "set by you (--cuda-context)";
            }
        } else if (figure) {
            l.bytes = figure->bytes;
            if (texts) {
                l.formula = concat({gpu.id, ", CUDA ", n(s.cudaMajor), ": ", n(l.bytes), " B (",
                                    formatBytes(l.bytes, ByteUnits::binary), ")"});
                l.source = std::string(figure->source);
            }
        } else {
            l.measured = false;
            if (texts) {
                l.formula = "not measured for " + gpu.id + " with CUDA " + n(s.cudaMajor) +
                            ": counted as 0 (set your own with --cuda-context)";
                l.source = "no cited or measured figure; reports of a few hundred MB (PyTorch issues #20532, "
                           "#109888) name no GPU and version";
            }
        }
        if (texts)
            l.label = "CUDA context";
        add(std::move(l), false);
    }

    // cuBLAS and cuBLASLt workspaces.
    {
        OverheadLine ws = line(OverheadKind::cublasWorkspace, s.libraryWorkspaces);
        OverheadLine lt = line(OverheadKind::cublasLtWorkspace, s.libraryWorkspaces);
        if (capability) {
            const double one = *capability == 90 ? kCublasSm90Workspace : kCublasDefaultWorkspace;
            ws.bytes = kMatmulThreads * one;
            lt.bytes = kMatmulThreads * kCublasLtWorkspace;
            if (texts) {
                ws.formula =
                    concat({n(kMatmulThreads), " handles (forward's thread, autograd's backward thread) × ",
                            *capability == 90 ? "4096 KiB·8 (sm 9.0)" : "(4096 KiB·2 + 16 KiB·8)", " = ",
                            n(kMatmulThreads), " × ", n(one), " = ", n(ws.bytes), " B"});
                lt.formula = concat({n(kMatmulThreads), " handles × 1024 KiB = ", n(lt.bytes), " B"});
            }
        } else {
            ws.measured = lt.measured = false;
            if (texts)
                ws.formula = lt.formula =
                    "compute capability of " + gpu.id + " not in Napkin's table: not counted";
        }
        if (texts) {
            ws.label = "cuBLAS workspace";
            lt.label = "cuBLASLt workspace";
            ws.source = std::string(kCublasSource);
            lt.source = std::string(kCublasLtSource);
        }
        add(std::move(ws), false);
        add(std::move(lt), false);
    }

    // The caching allocator's rounding of the saved tensors.
    const double peak = r.peakMemory.value;
    {
        OverheadLine l = line(OverheadKind::allocatorRounding, s.allocatorRounding);
        double tensors = 0, each = 0;
        if (in.model.kind == ModelKind::transformer) {
            l.bytes = r.activations.allocatorRoundingBytes;
        } else if (r.activationsModelled && r.activations.bytes > 0) {
            // cruncher: one B×D input kept per layer; linear2: its one hidden B×D.
            tensors = in.model.kind == ModelKind::cruncher ? layersHere : 1;
            each = r.activations.bytes / tensors;
            l.bytes = tensors * allocatorRoundingBytes(each);
        }
        if (texts) {
            l.label = "allocator rounding";
            constexpr std::string_view notEnumerated =
                "; parameter, gradient and optimizer-state tensors not enumerated (< 512 B each)";
            l.formula = tensors > 0
                            ? concat({n(tensors), " saved tensors × (512·⌈", n(each), "/512⌉ − ", n(each),
                                      ") = ", n(l.bytes), " B", notEnumerated})
                            : concat({"Σ over the saved tensors (the activation ledger, every layer and "
                                      "micro-batch) of 512·⌈bytes/512⌉ − bytes = ",
                                      n(l.bytes), " B", notEnumerated});
            l.source = "PyTorch c10/cuda/CUDACachingAllocator.cpp round_size(): kMinBlockSize = 512, every "
                       "request rounded up to a multiple of 512 bytes";
        }
        add(std::move(l), true);
    }
    const double rounding = usable && s.allocatorRounding ? o.totalBytes - o.fixedBytes : 0;
    o.roundingBytes = rounding;

    // Fragmentation allowance.
    {
        OverheadLine l = line(OverheadKind::fragmentation, s.fragmentation > 0);
        l.bytes = s.fragmentation * (peak + rounding);
        if (texts) {
            l.label = "fragmentation allowance";
            l.formula = concat({n(s.fragmentation), " × (peak + rounding) = ", n(s.fragmentation), " × (",
                                n(peak), " + ", n(rounding), ") = ", n(l.bytes), " B"});
            l.source = s.fragmentation > 0
                           ? "set by you (--fragmentation)"
                           : "0 by default: PyTorch documents no typical figure (its memory notes name "
                             "fragmentation and expandable_segments, with no number); a run's "
                             "max_memory_reserved / max_memory_allocated − 1 is yours";
        }
        add(std::move(l), true);
        o.fragmentationBytes = usable && s.fragmentation > 0 ? s.fragmentation * (peak + rounding) : 0;
    }

    // NCCL buffers: one communicator per parallel group of more than one GPU.
    {
        OverheadLine l = line(OverheadKind::ncclBuffers, s.ncclBuffers);
        const ParallelLayout& p = in.parallel;
        const double dp = dataParallelSize(p, in.gpus);
        double groups = 0;
        for (const double size : {dp, p.tp, p.pp, p.cp, p.ep})
            groups += size > 1 ? 1 : 0;
        if (groups == 0) {
            if (texts)
                l.formula = "one GPU in every group: no NCCL communicator, 0 B";
        } else if (!s.ncclChannels) {
            l.measured = false;
            if (texts)
                l.formula =
                    n(groups) + (groups == 1 ? " communicator" : " communicators") +
                    " × channels × NCCL_BUFFSIZE: channels not set, and NCCL has no default count to "
                    "cite (NCCL_MIN_NCHANNELS and NCCL_MAX_NCHANNELS default to unset; its topology search "
                    "picks the count at run time, NCCL_DEBUG=INFO prints it): not counted, 0 B; give "
                    "--nccl-channels";
        } else {
            l.bytes = groups * *s.ncclChannels * s.ncclBufferBytes;
            if (texts)
                l.formula = concat({n(groups), groups == 1 ? " communicator" : " communicators", " × ",
                                    n(*s.ncclChannels), " channels × ", n(s.ncclBufferBytes),
                                    " B = ", n(l.bytes), kNcclSimpleBufferNote});
        }
        if (texts) {
            l.label = "NCCL buffers";
            l.source =
                "NCCL src/init.cc: DEFAULT_BUFFSIZE (1 << 22) = 4 MiB, NCCL_BUFFSIZE overrides it; one "
                "set of buffers per communicator (dp, tp, pp, cp, ep groups of more than one GPU); channels: "
                "NCCL src/graph/connect.cc, NCCL_PARAM(MinNchannels, \"MIN_NCHANNELS\", -2) and "
                "MaxNchannels likewise: no fixed default, the count comes from the topology (0 to "
                "MAXCHANNELS)";
        }
        add(std::move(l), false);
    }

    // fp8 (TransformerEngine-style): the weights cast to fp8 and kept for backward, and the amax histories.
    if (in.precision == PrecisionRecipe::fp8Mixed) {
        OverheadLine copies = line(OverheadKind::fp8WeightCopies, s.fp8Copies);
        OverheadLine amax = line(OverheadKind::fp8AmaxHistory, s.fp8Copies);
        const double share = r.parameters.total > 0 ? r.parametersOnGpu.value / r.parameters.total : 0;
        const double weights = r.parameters.matmulParameters * share;
        // Hopper and Ada run fp8 GEMMs in the TN layout only, so TE keeps a transposed (column-wise) copy.
        const bool transposes = capability && (*capability == 90 || *capability == 89);
        const double perWeight = transposes ? 2 : 1;
        copies.bytes = weights * perWeight;
        const double gemms = in.model.kind == ModelKind::transformer ? 4 * layersHere
                             : in.model.kind == ModelKind::cruncher  ? layersHere + 1
                             : in.model.kind == ModelKind::linear2   ? 2
                                                                     : 0;
        amax.bytes = gemms * 3 * kAmaxHistoryLength * 4;
        if (texts) {
            copies.label = "fp8 weight copies";
            copies.formula = concat({"matmul weights on this GPU × ", n(perWeight), " B",
                                     transposes ? " (row-wise + transposed)" : " (row-wise)", " = ",
                                     n(weights), " × ", n(perWeight), " = ", n(copies.bytes), " B"});
            copies.source = "TransformerEngine docs, low-precision training, \"Handling transposes\": fp8 "
                            "GEMMs on Hopper need some tensors physically transposed; each fp8 weight is "
                            "kept from forward to backward";
            amax.label = "fp8 amax history";
            amax.formula = concat(
                {n(gemms), " fp8 GEMMs × 3 quantized tensors × amax_history_len 1024 × 4 B = ", n(amax.bytes),
                 " B"});
            amax.source = "TransformerEngine common API: DelayedScaling(amax_history_len=1024) by default";
        }
        add(std::move(copies), false);
        add(std::move(amax), false);
    }
    return o;
}

} // namespace napkin
