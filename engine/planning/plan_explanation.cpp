// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/planning/plan_explanation.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace napkin {
namespace {

std::map<std::string, double> partSeconds(const StepTime& time) {
    std::map<std::string, double> parts;
    for (const StepTimeRow& row : time.ledger)
        parts[ledgerPart(row)] += row.seconds;
    return parts;
}

} // namespace

std::string ledgerPart(const StepTimeRow& row) {
    switch (row.kind) {
    case StepTimeKind::communication:
        return row.name;
    case StepTimeKind::bubble:
        return "pipeline bubble";
    case StepTimeKind::compute:
    case StepTimeKind::memory:
    case StepTimeKind::overhead:
        break;
    }
    return std::string(stepTimePhaseName(row.phase)) + " " + std::string(stepTimeKindName(row.kind));
}

std::vector<LedgerDifference> ledgerDifferences(const StepTime& first, const StepTime& other, std::size_t count) {
    std::map<std::string, double> difference = partSeconds(other);
    for (const auto& [part, seconds] : partSeconds(first))
        difference[part] -= seconds;
    std::vector<LedgerDifference> out;
    const double negligible = 1e-6 * first.seconds;
    for (const auto& [part, seconds] : difference)
        if (std::abs(seconds) > negligible)
            out.push_back({part, seconds});
    std::stable_sort(out.begin(), out.end(), [](const LedgerDifference& a, const LedgerDifference& b) {
        return std::abs(a.seconds) > std::abs(b.seconds);
    });
    if (out.size() > count)
        out.resize(count);
    return out;
}

} // namespace napkin
