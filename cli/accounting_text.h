#pragma once
// The human-readable report `napkin-cli account` prints without --json: every number with its formula.
#include "engine/accounting/accounting.h"

#include <string>

namespace napkin::cli {

std::string accountingToText(const AccountingInput& input, const GpuSpec& gpu,
                             const AccountingResult& result);

/// GPU-hours, money, energy and emissions with their formulas, a line each.
std::string runCostText(const RunCost& cost);

} // namespace napkin::cli
