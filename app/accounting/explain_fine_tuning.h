// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "How is this computed?" section for fine-tuning: what trains, the frozen base's storage, the
// adapters' FLOPs and activations, and where offloading puts the optimizer's states.
#include "engine/accounting/accounting.h"
#include "engine/numerics/quantity_format.h"

#include <QString>

/// Empty for plain training; else one section, placed after the parameters.
QString explainFineTuning(const napkin::AccountingInput& input, const napkin::AccountingResult& result,
                          napkin::ByteUnits units);
