// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What fine-tuning adds to an accounting result beyond its memory and FLOPs: an offloaded step's
// host-link time against its compute, and the notes that say what the numbers assume.
#include "engine/accounting/accounting.h"

namespace napkin {

/// Sets computeSecondsPerStep and hostLinkSecondsPerStep when the input offloads (the latter only where
/// the catalog gives the GPU's host link; a note says so otherwise). `replica`: one replica's step FLOPs.
void addHostLinkTime(AccountingResult& result, const AccountingInput& input, const GpuSpec& gpu,
                     const StepFlops& replica);
/// Notes on the trainable count, the frozen layers' activations, QLoRA's dequantisation and offloading.
void addFineTuneNotes(AccountingResult& result, const AccountingInput& input);

} // namespace napkin
