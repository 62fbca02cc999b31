// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The human-readable report `napkin-cli account` prints without --json: every number with its formula.
#include "engine/accounting/accounting.h"
#include "engine/allocator/fit_verdict.h"

#include <string>

namespace napkin::cli {

/// `verdict`: the fit judged on reserved where the simulated allocator applies (judgeFit, as --json's
/// fits_verdict and the app's answer), printed under the allocated verdict; null: none printed.
std::string accountingToText(const AccountingInput& input, const GpuSpec& gpu, const AccountingResult& result,
                             const FitVerdict* verdict = nullptr);

/// GPU-hours, money, energy and emissions with their formulas, a line each.
std::string runCostText(const RunCost& cost);

} // namespace napkin::cli
