// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "How is this computed?" for the overhead ledger: the usable memory against the datasheet's, each
// overhead line with its formula and source, and the verdict's sum (memory_overheads.h).
#include "engine/accounting/accounting.h"
#include "engine/numerics/quantity_format.h"

#include <QString>

QString explainOverheads(const napkin::AccountingInput& input, const napkin::AccountingResult& result,
                         napkin::ByteUnits units);
