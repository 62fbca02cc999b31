// SPDX-License-Identifier: GPL-3.0-or-later
// accounting.overheads: the overhead ledger's settings (engine/accounting/memory_overheads.h) in a
// scenario file: {"basis", "switches", "fragmentation", "cuda_major", "cuda_context_bytes",
// "nccl_channels", "nccl_buffsize_bytes"}; null for a figure not given.
#include "engine/accounting/memory_overhead_knobs.h"
#include "engine/accounting/memory_overheads.h"
#include "engine/scenario/number_knobs_json.h"
#include "engine/scenario/scenario_section.h"

namespace napkin::scenario_detail {

void readOverheads(const Section& s, MemoryOverheadSettings& o) {
    readNumberKnobs(s, memoryOverheadKnobs(), o, {"basis", "switches"}); // the numbers, by their table
    s.name("basis", o.basis, memoryBasisFromName);
    std::string switches;
    s.text("switches", switches);
    if (s.find("switches") && !setOverheadSwitches(switches, o))
        s.refuse("switches", "must be all, none or a comma list of context, workspaces, rounding, nccl, fp8");
}

json overheadsJson(const MemoryOverheadSettings& o) {
    json object = writeNumberKnobs(memoryOverheadKnobs(), o);
    object["basis"] = std::string(memoryBasisName(o.basis));
    object["switches"] = overheadSwitchesText(o);
    return object;
}

} // namespace napkin::scenario_detail
