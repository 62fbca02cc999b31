// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Why one layout is faster than another, in the time ledger's words (step_time.h): the ledger's rows grouped
// into parts that every layout has (a phase's compute, its memory-bound ops, a collective, the bubble), so
// two layouts whose GEMMs have different shapes still compare part by part.
#include "engine/planning/layout_plan.h"
#include "engine/steptime/step_time.h"

#include <cstddef>
#include <string>
#include <vector>

namespace napkin {

/// The part a ledger row belongs to: a collective's own name ("all-reduce … (tensor_parallel)"), "pipeline
/// bubble", or the phase and what bounds the row ("backward compute", "forward memory", "optimizer memory",
/// "forward overhead").
std::string ledgerPart(const StepTimeRow& row);

/// `other`'s seconds less `first`'s in each part, the `count` largest in magnitude first (parts that differ
/// by less than a millionth of `first`'s step are left out).
std::vector<LedgerDifference> ledgerDifferences(const StepTime& first, const StepTime& other, std::size_t count);

/// Why `layout` holds its layers unevenly over its pipeline stages, in one line: the split, whether an
/// even one exists, which stage sets 1F1B's pace (from its step time's ledger notes); empty for even stages.
std::string unevenStagesExplanation(const PlannedLayout& layout);

} // namespace napkin
