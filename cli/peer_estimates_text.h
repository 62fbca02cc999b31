// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lines `napkin-cli account` prints under "compared with other calculators": each peer's number
// beside Napkin's and the terms that differ (the JSON's peer_estimates, in words).
#include "engine/peers/peer_estimate.h"

#include <string>
#include <vector>

namespace napkin::cli {

std::string peerEstimatesText(const std::vector<PeerEstimate>& estimates);

} // namespace napkin::cli
