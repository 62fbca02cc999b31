// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_terms.h"

#include <algorithm>
#include <cmath>

namespace napkin {

void closeTerms(PeerQuantity& q) {
    std::erase_if(q.terms, [](const PeerTerm& t) { return t.peer == 0 && t.napkin == 0; });
    if (!q.napkin)
        return;
    double named = 0;
    for (const PeerTerm& t : q.terms)
        named += t.difference();
    const double rest = q.difference() - named;
    const double scale = std::max({std::abs(q.peer), std::abs(*q.napkin), 1.0});
    if (std::abs(rest) > 1 && std::abs(rest) > 1e-6 * scale)
        q.terms.push_back({"other", rest, 0,
                           "not named: what the terms above leave of the difference (a layout or "
                           "buffer Napkin counts that the peer's formula has no term for)"});
}

std::string joinReasons(const std::vector<std::string>& reasons) {
    std::string text;
    for (const std::string& r : reasons)
        text += (text.empty() ? "" : "; ") + r;
    return text;
}

} // namespace napkin
