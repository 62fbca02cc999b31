// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "How is this computed?" section for ZeRO/FSDP's layouts and the pipeline's stages: DeepSpeed's two
// gradient copies, the gathered working set, HSDP, the interleaved schedule, and one row per stage.
#include "engine/accounting/accounting.h"
#include "engine/numerics/quantity_format.h"

#include <QString>

/// HTML for the explanation pane; empty when none of these applies (no pipeline, every option off).
QString explainSharding(const napkin::AccountingInput& input, const napkin::AccountingResult& result,
                        napkin::ByteUnits units);
