// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "How is this computed?" section for what a run costs (GPU-hours, money, energy, emissions) and for
// what the chosen part can and cannot do (architecture, compute capability, TDP, fallbacks).
#include "engine/accounting/accounting.h"

#include <QString>

/// Empty without training totals; else the run's cost with each formula and its inputs' sources.
QString explainRunCost(const napkin::AccountingInput& input, const napkin::AccountingResult& result);

/// The part's architecture and limits, and where its TDP comes from.
QString explainGpuCapabilities(const napkin::AccountingInput& input);
