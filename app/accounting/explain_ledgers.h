// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "How is this computed?" sections for the activation and communication ledgers and the parallel
// layout: one table row per saved tensor and per collective, each with its numbers.
#include "engine/accounting/accounting.h"
#include "engine/numerics/quantity_format.h"

#include <QString>

/// HTML for the explanation pane, appended after explainAccounting()'s sections.
QString explainLedgers(const napkin::AccountingInput& input, const napkin::AccountingResult& result,
                       napkin::ByteUnits units);
