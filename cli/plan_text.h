// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The human-readable answer `napkin-cli plan` prints without --json: the ranking, why each runner-up
// loses, where the user's layout stands, and when nothing fits, why.
#include "engine/planning/layout_plan.h"
#include "engine/report/plan_report.h"

#include <string>

namespace napkin::cli {

std::string layoutPlanText(const AccountingInput& base, const LayoutPlan& plan, const PlanCommandContext& context);

} // namespace napkin::cli
