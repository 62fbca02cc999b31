// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/overhead_options.h"

#include "cli/enum_option.h"
#include "cli/number_option.h"
#include "engine/accounting/memory_overhead_knobs.h"

#include <CLI/CLI.hpp>

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
    addNumberKnobOptions(sub, memoryOverheadKnobs(), o.numbers);
}

void applyOverheadOptions(const OverheadOptions& o, MemoryOverheadSettings& s) {
    if (!o.basis.empty())
        s.basis = *memoryBasisFromName(o.basis); // CLI11 checked membership
    if (!o.switches.empty() && !setOverheadSwitches(o.switches, s))
        throw UsageError("--overheads: '" + o.switches +
                         "' is not all, none or a comma list of context, workspaces, rounding, nccl, fp8 "
                         "(each once)");
    applyNumberKnobOptions(memoryOverheadKnobs(), o.numbers, s);
}

} // namespace napkin::cli
