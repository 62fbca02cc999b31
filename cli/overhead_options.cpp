#include "cli/overhead_options.h"

#include "cli/enum_option.h"
#include "cli/number_option.h"

#include <CLI/CLI.hpp>

#include <cmath>

namespace napkin::cli {

void addOverheadOptions(CLI::App& sub, OverheadOptions& o) {
    sub.add_option("--memory-basis", o.basis,
                   "datasheet|usable: what fits is judged against. usable (default): the memory the driver "
                   "reports (the catalog's, else the datasheet's) with the step's peak plus the overheads; "
                   "datasheet: the lecture's 80 GB = 80e9 B and no overheads")
        ->check(CLI::IsMember({"datasheet", "usable"}));
    sub.add_option("--overheads", o.switches,
                   "overhead lines counted: all (default), none, or a comma list of "
                   "context,workspaces,rounding,nccl,fp8");
    sub.add_option("--fragmentation", o.fragmentation,
                   "allocator fragmentation allowance, a fraction of the step's allocations in [0, 1) "
                   "(default 0)");
    sub.add_option("--cuda-major", o.cudaMajor,
                   "CUDA major version whose context figure applies (default 12)");
    sub.add_option(
        "--cuda-context", o.cudaContext,
        "your measured CUDA context in bytes (nvidia-smi of a process that only initialised CUDA)");
    sub.add_option("--nccl-channels", o.ncclChannels,
                   "NCCL channels per communicator (NCCL_DEBUG=INFO prints them); unset: not counted");
    sub.add_option("--nccl-buffsize", o.ncclBuffsize, "NCCL_BUFFSIZE in bytes (default 4194304)");
}

void applyOverheadOptions(const OverheadOptions& o, MemoryOverheadSettings& s) {
    if (!o.basis.empty())
        s.basis = *memoryBasisFromName(o.basis); // CLI11 checked membership
    if (!o.switches.empty() && !setOverheadSwitches(o.switches, s))
        throw UsageError("--overheads: '" + o.switches +
                         "' is not all, none or a comma list of context, workspaces, rounding, nccl, fp8 "
                         "(each once)");
    if (!o.fragmentation.empty())
        s.fragmentation = parseNumberOption("--fragmentation", o.fragmentation);
    if (!o.cudaMajor.empty()) {
        const double major = parseNumberOption("--cuda-major", o.cudaMajor);
        if (!(major >= 1 && major <= 99) || std::floor(major) != major)
            throw UsageError("--cuda-major: must be a CUDA major version from 1 to 99, got '" + o.cudaMajor +
                             "'");
        s.cudaMajor = static_cast<int>(major);
    }
    if (!o.cudaContext.empty())
        s.cudaContextBytes = parseNumberOption("--cuda-context", o.cudaContext);
    if (!o.ncclChannels.empty())
        s.ncclChannels = parseNumberOption("--nccl-channels", o.ncclChannels);
    if (!o.ncclBuffsize.empty())
        s.ncclBufferBytes = parseNumberOption("--nccl-buffsize", o.ncclBuffsize);
}

} // namespace napkin::cli
