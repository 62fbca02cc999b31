// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The overhead ledger's numeric knobs (memory_overheads.h), declared once: fragmentation, CUDA major
// version, the user's own CUDA context, NCCL channels and NCCL_BUFFSIZE. Validation, the scenario file,
// napkin-cli's options (account and infer) and the printed command line read them here. The basis and the
// switches are not numbers and stay with their own readers; the app's Overheads group still builds its two
// rows (fragmentation, NCCL channels with 0 for "not set") itself.
#include "engine/accounting/memory_overheads.h"
#include "engine/accounting/number_knob.h"

#include <span>

namespace napkin {

/// In the order the command line prints them.
std::span<const NumberKnob<MemoryOverheadSettings>> memoryOverheadKnobs();

} // namespace napkin
