// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// When even one sequence per GPU does not fit: the changes that would make it fit, instead of
// "largest batch: 0".
#include "engine/accounting/accounting.h"

#include <functional>
#include <string>

namespace napkin {

/// Batch 1 fits: the largest batch is at least 1 (or, where activations are not modelled, the states fit).
bool fitsAtBatchOne(const AccountingResult& result);

/// What would make `input` fit at batch 1, each tried by accounting it again: recompute (selective,
/// then full), ZeRO-3, and for transformers the smallest tp·pp (tp ≤ 8 dividing the heads, pp dividing
/// the layers, sequence parallel on, at least p micro-batches; on the same GPUs when they divide into such
/// replicas, else on dp of them) keeping cp and ep; for the other
/// kinds the fewest GPUs under ZeRO-3. "" when batch 1 fits.
std::string fitAdvice(const AccountingInput& input, const GpuSpec& gpu, const AccountingResult& result);

/// Whether a candidate (a valid layout, batch 1) fits: peakFits() for fitAdvice() above.
using CandidateFits = std::function<bool(const AccountingInput& candidate, const GpuSpec& gpu)>;
/// fitAdvice() with each candidate judged by `fits` (the fit verdict's rule: on reserved where the step is
/// modelled event by event, engine/allocator/fit_searches.h) and `batchOneFits` for the input itself.
std::string fitAdvice(const AccountingInput& input, const GpuSpec& gpu, const AccountingResult& result,
                      bool batchOneFits, const CandidateFits& fits);

} // namespace napkin
