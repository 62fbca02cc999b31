// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/capability_rules.h"

#include "engine/hardware/gpu_capabilities.h"

namespace napkin {

std::vector<std::string> applyCapabilityRules(AccountingInput& input, const GpuSpec& gpu) {
    std::vector<std::string> warnings;
    const EffectivePeak peak =
        effectiveDensePeak(gpu, ledgerFor(input.precision, input.fp32Gradients).compute);
    if (peak.refused) // memory is still answered; the time is not (accounting.h: timeUnavailable)
        warnings.push_back("no training time: " + peak.reason);
    else if (!peak.reason.empty())
        warnings.push_back(peak.reason);
    if (input.model.attentionImpl == AttentionImpl::flash) {
        const std::string reason = flashAttentionUnavailableReason(gpu);
        if (!reason.empty()) {
            input.model.attentionImpl = AttentionImpl::eager;
            warnings.push_back(reason);
        }
    }
    return warnings;
}

std::vector<std::string> capabilityWarnings(const AccountingInput& input, const GpuSpec& gpu) {
    AccountingInput copy = input;
    return applyCapabilityRules(copy, gpu);
}

} // namespace napkin
