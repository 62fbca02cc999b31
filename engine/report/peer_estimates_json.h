// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The accounting document's peer_estimates array: what other calculators would report for the setup,
// beside Napkin's number, with the terms that differ (docs/cli.md).
#include "engine/peers/peer_estimate.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace napkin {

/// [{peer, source, applicable, not_applicable, conventions[], quantities[{name, unit, peer, peer_formula,
/// napkin, napkin_meaning, difference, terms[{name, peer, napkin, difference, why}]}]}]
nlohmann::json peerEstimatesJson(const std::vector<PeerEstimate>& estimates);

} // namespace napkin
