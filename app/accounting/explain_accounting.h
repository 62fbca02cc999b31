// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "How is this computed?" for the Accounting page: the derivation behind each answer, with the numbers
// now on screen substituted. Pure functions of engine values, so tests can call them with known inputs.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/numerics/quantity_format.h"

#include <QString>

/// HTML: parameter count, bytes per parameter (16 B/param for AdamW in fp32), memory per GPU and its
/// peak over one step (app/accounting/memory_timeline_section.h), FLOPs of
/// a matmul (2·m·n·k), forward 2N and backward 4N per token (6N), training FLOPs and time, and MFU.
QString explainAccounting(const napkin::AccountingInput& input, const napkin::AccountingResult& result,
                          napkin::ByteUnits units);
/// As above with the step's timeline the page already built (memoryTimeline(input, result)), so a slider
/// tick builds it once for the chart and the text.
QString explainAccounting(const napkin::AccountingInput& input, const napkin::AccountingResult& result,
                          const napkin::MemoryTimeline& timeline, napkin::ByteUnits units);
