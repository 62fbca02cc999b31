// accounting.overheads: the overhead ledger's settings (engine/accounting/memory_overheads.h) in a
// scenario file: {"basis", "switches", "fragmentation", "cuda_major", "cuda_context_bytes",
// "nccl_channels", "nccl_buffsize_bytes"}; null for a figure not given.
#include "engine/accounting/memory_overheads.h"
#include "engine/scenario/scenario_section.h"

#include <cmath>

namespace napkin::scenario_detail {

namespace {

void optionalNumber(const Section& s, const char* key, std::optional<double>& target, double maximum) {
    if (const json* v = s.find(key); v && v->is_null()) {
        target.reset();
        return;
    }
    if (!s.find(key))
        return;
    double x = 0;
    s.number(key, x, 0, maximum);
    target = x;
}

} // namespace

void readOverheads(const Section& s, MemoryOverheadSettings& o) {
    s.expectKeys({"basis", "switches", "fragmentation", "cuda_major", "cuda_context_bytes", "nccl_channels",
                  "nccl_buffsize_bytes"});
    s.name("basis", o.basis, memoryBasisFromName);
    std::string switches;
    s.text("switches", switches);
    if (s.find("switches") && !setOverheadSwitches(switches, o))
        s.refuse("switches", "must be all, none or a comma list of context, workspaces, rounding, nccl, fp8");
    s.number("fragmentation", o.fragmentation, 0, 1);
    double major = o.cudaMajor;
    s.number("cuda_major", major, 1, 99);
    if (major != std::floor(major))
        s.refuse("cuda_major", "must be a whole number");
    o.cudaMajor = static_cast<int>(major);
    optionalNumber(s, "cuda_context_bytes", o.cudaContextBytes, 1e12);
    optionalNumber(s, "nccl_channels", o.ncclChannels, 1024);
    s.number("nccl_buffsize_bytes", o.ncclBufferBytes, 1, 1e10);
    // The engine's own rules (a fraction below 1, whole channels), named by the key they came from.
    const InputError e = validateOverheads(o);
    if (!e.ok()) {
        const std::string field = e.field == "fragmentation"   ? "fragmentation"
                                  : e.field == "cuda-context"  ? "cuda_context_bytes"
                                  : e.field == "nccl-channels" ? "nccl_channels"
                                  : e.field == "nccl-buffsize" ? "nccl_buffsize_bytes"
                                                               : "cuda_major";
        s.refuse(field.c_str(), e.message);
    }
}

json overheadsJson(const MemoryOverheadSettings& o) {
    return {{"basis", std::string(memoryBasisName(o.basis))},
            {"switches", overheadSwitchesText(o)},
            {"fragmentation", o.fragmentation},
            {"cuda_major", o.cudaMajor},
            {"cuda_context_bytes", o.cudaContextBytes ? json(*o.cudaContextBytes) : json(nullptr)},
            {"nccl_channels", o.ncclChannels ? json(*o.ncclChannels) : json(nullptr)},
            {"nccl_buffsize_bytes", o.ncclBufferBytes}};
}

} // namespace napkin::scenario_detail
