// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_estimates.h"

#include "engine/peers/deepspeed_estimator.h"
#include "engine/peers/llm_analysis_estimator.h"
#include "engine/peers/megatron_estimator.h"

namespace napkin {

std::vector<PeerEstimate> peerEstimates(const AccountingInput& input, const AccountingResult& result) {
    return {deepSpeedEstimate(input, result), megatronEstimate(input, result),
            llmAnalysisEstimate(input, result)};
}

} // namespace napkin
