// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The largest batch, the largest sequence and the fit advice judged as `fits` is (fit_verdict.h): on the
// caching allocator's simulated reserved peak where the step is modelled event by event, on the allocated
// peak elsewhere, saying why. account() searches on allocated (each probe a few µs); a probe on reserved is a
// replay of the step (64 µs for GPT-3 175B's, docs/benchmarks.md), so these are computed on request, as the
// verdict is: `napkin-cli account --json` (max_batch_verdict, max_sequence_verdict, fit_advice_verdict,
// searches_on) and the Accounting page's tick, never inside account().
#include "engine/accounting/accounting.h"
#include "engine/allocator/allocator_config.h"
#include "engine/allocator/fit_verdict.h"

#include <cstdint>
#include <optional>
#include <string>

namespace napkin {

struct FitSearches {
    FitBasis basis = FitBasis::allocated; ///< what the searches were judged on: the verdict's basis
    std::optional<Quantity> maxBatch;     ///< as AccountingResult::maxBatch, judged on `basis`
    std::optional<Quantity> maxSequence;  ///< as AccountingResult::maxSequence, judged on `basis`
    std::string fitAdvice;                ///< as AccountingResult::fitAdvice, judged on `basis`
    std::string notOnReserved;            ///< on allocated: why (the verdict's reason); empty on reserved
    std::int64_t probes = 0;              ///< setups the searches accounted (peaks with no text)
    std::int64_t replays = 0;             ///< steps the probes replayed (stepReserved() calls)
};

/// Whether `input` fits as judgeFit() judges it (reserved where reservedFitInapplicable() is empty and the
/// replay gives a figure, else allocated), accounted with no text: one search probe, at most one replay.
bool fitsAsJudged(const AccountingInput& input, const GpuSpec& gpu, const AllocatorConfig& config);

/// The searches on `verdict`'s basis (judgeFit(input, result, …) under `config`; `result` is
/// account(input, gpu)'s). On allocated they are `result`'s own, with no work. On reserved each probe is
/// fitsAsJudged(): the largest batch B that fits with B + 1 not fitting, and the largest sequence likewise
/// (multiples of cp, the same caps as maxSequence()), each found from the allocated answer outwards
/// (doubling steps, then bisection: a few replays where the two answers are near); the fit advice when even
/// batch 1 does not fit on reserved, each candidate judged by fitsAsJudged() (a candidate whose step is
/// phases only, tp or pp above 1, is judged on allocated, as its verdict would be).
FitSearches searchFits(const AccountingInput& input, const GpuSpec& gpu, const AccountingResult& result,
                       const FitVerdict& verdict, const AllocatorConfig& config = {});

} // namespace napkin
