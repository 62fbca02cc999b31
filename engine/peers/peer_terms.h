// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Closing a quantity's list of named terms so that they add up to the whole difference.
#include "engine/peers/peer_estimate.h"

#include <string>
#include <vector>

namespace napkin {

/// Drops the terms where neither side counts anything and, when the named terms leave part of
/// peer − napkin unexplained (more than a millionth of it and more than one unit: Python's int()
/// truncation stays silent), adds a term "other" holding the remainder.
void closeTerms(PeerQuantity& quantity);

/// The reasons a peer counts differently, as one line: "a; b; c".
std::string joinReasons(const std::vector<std::string>& reasons);

} // namespace napkin
