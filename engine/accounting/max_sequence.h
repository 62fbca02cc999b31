// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The inverse question for the context: the largest sequence length whose training step fits the GPU,
// at the input's batch and every other setting (fine-tuning, offload, recompute, parallelism) unchanged.
#include "engine/accounting/accounting.h"

#include <optional>

namespace napkin {

/// The longest sequence searched: 2^24 tokens, far past any context trained today; a smaller answer
/// means the peak, not the search, stopped it.
inline constexpr double kMaxSequenceSearched = 16777216;

/// The largest S whose step peak (the peak that decides `fits`) fits the GPU's capacity, among the S that
/// validate() accepts: whole multiples of cp (each GPU takes S/cp tokens), at most kMaxSequenceSearched,
/// and at most the model's seq with learned positions (the table stops there, as inference's max_context
/// does; the table is then taken to be S rows long, as the accounting takes it at every S). 0 when even
/// the shortest valid S does not fit. Unset where activations are not modelled or the model has no
/// sequence (cruncher, linear2). `atInput` is accountStep(input, gpu): its peak at the input's seq is reused.
std::optional<Quantity> maxSequence(const AccountingInput& input, const GpuSpec& gpu,
                                    const AccountingResult& atInput);

} // namespace napkin
