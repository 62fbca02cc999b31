// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// napkin-cli account's overhead-ledger options (engine/accounting/memory_overheads.h): --memory-basis,
// --overheads, --fragmentation, --cuda-major, --cuda-context, --nccl-channels, --nccl-buffsize. Raw text;
// empty: not given, so the preset's value (or the default) stands.
#include "cli/number_knob_options.h"
#include "engine/accounting/memory_overheads.h"

#include <string>

namespace CLI {
class App;
}

namespace napkin::cli {

struct OverheadOptions {
    std::string basis, switches;
    NumberKnobTexts numbers; // --fragmentation … --nccl-buffsize: engine/accounting/memory_overhead_knobs.h
};

void addOverheadOptions(CLI::App& command, OverheadOptions& options);
/// Applies the options given on top of `settings`; throws UsageError naming the option on a bad value
/// (ranges are validate()'s, through validateOverheads()).
void applyOverheadOptions(const OverheadOptions& options, MemoryOverheadSettings& settings);

} // namespace napkin::cli
