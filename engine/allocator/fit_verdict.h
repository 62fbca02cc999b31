// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `fits`, judged on what a PyTorch run's out-of-memory error follows: the caching allocator's reserved
// segments (step_reserved.h), where the simulation applies; on the allocated peak where it does not. The one
// verdict `napkin-cli account --json` (fits_on, fits_verdict, reserved_memory.fits) and the Accounting page
// (the fits answer, the memory bar) both give, so that they cannot disagree (docs/cli.md,
// docs/memory-timeline.md, "Reserved memory").
//
// On reserved: the simulated max_memory_reserved() plus the counted overheads the allocator does not hold
// (CUDA context, library workspaces, NCCL's buffers, fp8 copies, the allocator-rounding line of the saved
// tensors, which the simulation's one block per component change does not reproduce) against the usable
// memory. The fragmentation allowance is not added there: it stands for the cached free blocks the
// simulated segments hold. Where it applies: the usable basis (the datasheet basis, the lecture's convention,
// counts no allocator), a step modelled event by event (the phases of a step whose order is not modelled
// have nothing to replay), and a replay that gives a figure (not one refused as too long or too large).
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/allocator/allocator_config.h"
#include "engine/allocator/step_reserved.h"

#include <optional>
#include <string>
#include <string_view>

namespace napkin {

enum class FitBasis { allocated, reserved };
std::string_view fitBasisName(FitBasis basis); ///< "allocated", "reserved"

struct FitVerdict {
    bool fits = false;
    FitBasis basis = FitBasis::allocated; ///< what it was judged on
    /// What was compared with `usableBytes`: the reserved peak plus the overheads the allocator does not
    /// hold, or the allocated peak plus the counted overheads (result.predictedBytes).
    double requiredBytes = 0;
    double usableBytes = 0;
    double allocatedPeakBytes = 0;           ///< result.peakMemory
    std::optional<double> reservedPeakBytes; ///< the simulation's max_memory_reserved(), where it ran
    std::optional<bool> fitsOnReserved;      ///< the reserved verdict, where it applies
    std::string
        formula; ///< "fits on reserved: peak reserved 5.42 GB + overheads … ≤ usable …; allocated peak …"
    std::string notOnReserved; ///< on allocated: why not on reserved; empty on reserved
};

/// What the verdict on reserved compares with the usable memory: the replay's max_memory_reserved() plus the
/// counted overheads the allocator does not hold (result.overheads less its fragmentation allowance), bytes.
double reservedRequiredBytes(const AccountingResult& result, const StepReserved& reserved);

/// Why the simulation does not judge `input`'s fit (empty: it does, given a replay with no error).
std::string reservedFitInapplicable(const AccountingInput& input, const AccountingResult& result);

/// The verdict from `reserved`, stepReserved(input, result, …)'s; null where the caller did not simulate
/// (reservedFitInapplicable() said why, or the caller has none): judged on allocated.
FitVerdict judgeFit(const AccountingInput& input, const AccountingResult& result,
                    const StepReserved* reserved);

/// The verdict, simulating the step (stepReserved() under `config`, with the caller's steady timeline where
/// given) only where reservedFitInapplicable() is empty: one replay, or none.
FitVerdict judgeFit(const AccountingInput& input, const AccountingResult& result,
                    const AllocatorConfig& config, const MemoryTimeline* steady = nullptr);

} // namespace napkin
