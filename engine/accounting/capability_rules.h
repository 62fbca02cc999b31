// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the chosen part cannot do, applied to a setup before it is accounted and said as warnings: both
// front ends call this once, before validate() and account(), so the answers follow the part. Serving's
// (the weight format's arithmetic on the part) are engine/inference's inference_warnings.h.
#include "engine/accounting/accounting.h"

#include <string>
#include <vector>

namespace napkin {

/// Flash attention falls back to the eager kernel where FlashAttention 2 does not run (an NVIDIA part
/// below Ampere), so the activation ledger stores the a·s² scores; the returned warnings say so, and say
/// when the recipe's arithmetic runs at another rate than its own peak (bf16 emulated at the fp32 rate
/// on Turing/Volta, tf32 as plain fp32). Where the part has no peak for the arithmetic (fp8 on Ampere, a
/// peak no source gives, as on Apple's M4 Max) the warning says the training time is missing and why;
/// memory is still accounted.
std::vector<std::string> applyCapabilityRules(AccountingInput& input, const GpuSpec& gpu);

/// The warnings applyCapabilityRules would give for `input`, without changing it (the JSON document's
/// `warnings`: an input that already fell back says only what still applies, e.g. bf16 at the fp32 rate).
std::vector<std::string> capabilityWarnings(const AccountingInput& input, const GpuSpec& gpu);

} // namespace napkin
