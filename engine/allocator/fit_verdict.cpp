// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/fit_verdict.h"

#include "engine/accounting/memory_overheads.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {
namespace {

std::string bytes(double b) {
    return formatBytes(b);
}

} // namespace

std::string_view fitBasisName(FitBasis basis) {
    return basis == FitBasis::reserved ? "reserved" : "allocated";
}

double reservedRequiredBytes(const AccountingResult& result, const StepReserved& reserved) {
    // The fragmentation allowance stands for the cached free blocks the simulated segments hold: not added.
    const MemoryOverheads& o = result.overheads;
    return reserved.peakReservedBytes + (o.totalBytes - o.fragmentationBytes);
}

std::string reservedFitInapplicable(const AccountingInput& input, const AccountingResult& result) {
    if (input.overheads.basis == MemoryBasis::datasheet)
        return "the datasheet basis (the lecture's convention) counts no allocator";
    if (!result.peakFromTimeline)
        return "the step's order is not modelled event by event: no allocations to replay";
    return {};
}

FitVerdict judgeFit(const AccountingInput& input, const AccountingResult& result,
                    const StepReserved* reserved) {
    FitVerdict v;
    v.usableBytes = result.usableBytes.value;
    v.allocatedPeakBytes = result.peakMemory.value;
    std::string why = reservedFitInapplicable(input, result);
    if (why.empty()) {
        if (reserved == nullptr)
            why = "the allocator was not simulated";
        else if (!reserved->error.empty())
            why = "the simulated allocator gives no figure: " + reserved->error;
    }
    const MemoryOverheads& o = result.overheads;
    const bool datasheet = o.basis == MemoryBasis::datasheet;
    if (!why.empty() || reserved == nullptr) {
        v.basis = FitBasis::allocated;
        v.requiredBytes = result.predictedBytes.value;
        v.fits = result.fits;
        v.notOnReserved = why;
        v.formula =
            std::string(v.fits ? "fits" : "does not fit") + " on allocated: peak " +
            bytes(v.allocatedPeakBytes) +
            (datasheet ? "" : " + overheads " + bytes(o.totalBytes) + " = " + bytes(v.requiredBytes)) +
            (v.fits ? " ≤ " : " > ") + (datasheet ? "" : "usable ") + bytes(v.usableBytes) +
            "; not on reserved: " + why;
        return v;
    }
    const double overheads = o.totalBytes - o.fragmentationBytes;
    v.basis = FitBasis::reserved;
    v.reservedPeakBytes = reserved->peakReservedBytes;
    v.requiredBytes = reservedRequiredBytes(result, *reserved);
    v.fits = v.requiredBytes <= v.usableBytes;
    v.fitsOnReserved = v.fits;
    v.formula = std::string(v.fits ? "fits" : "does not fit") + " on reserved: peak reserved " +
                bytes(reserved->peakReservedBytes) + " + overheads " + bytes(overheads) + " = " +
                bytes(v.requiredBytes) + (v.fits ? " ≤ " : " > ") + "usable " + bytes(v.usableBytes) +
                "; allocated peak " + bytes(v.allocatedPeakBytes) +
                (o.fragmentationBytes > 0 ? " (the fragmentation allowance " + bytes(o.fragmentationBytes) +
                                                " not added: the simulated segments hold it)"
                                          : "") +
                (result.fits == v.fits ? ""
                 : result.fits         ? ", which with its overheads would fit"
                                       : ", which with its overheads would not fit");
    return v;
}

FitVerdict judgeFit(const AccountingInput& input, const AccountingResult& result,
                    const AllocatorConfig& config, const MemoryTimeline* steady) {
    if (!reservedFitInapplicable(input, result).empty())
        return judgeFit(input, result, nullptr);
    const StepReserved reserved = stepReserved(input, result, config, 2, steady);
    return judgeFit(input, result, &reserved);
}

} // namespace napkin
