// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/peer_estimates_json.h"

#include "engine/report/json_values.h"

namespace napkin {

using nlohmann::json;

json peerEstimatesJson(const std::vector<PeerEstimate>& estimates) {
    json all = json::array();
    for (const PeerEstimate& e : estimates) {
        json quantities = json::array();
        for (const PeerQuantity& q : e.quantities) {
            json terms = json::array();
            for (const PeerTerm& t : q.terms)
                terms.push_back({{"name", t.name},
                                 {"peer", jsonNumber(t.peer)},
                                 {"napkin", jsonNumber(t.napkin)},
                                 {"difference", jsonNumber(t.difference())},
                                 {"why", t.why}});
            quantities.push_back({{"name", q.name},
                                  {"unit", q.unit},
                                  {"peer", jsonNumber(q.peer)},
                                  {"peer_formula", q.peerFormula},
                                  {"napkin", q.napkin ? jsonNumber(*q.napkin) : json(nullptr)},
                                  {"napkin_meaning", q.napkinMeaning},
                                  {"difference", q.napkin ? jsonNumber(q.difference()) : json(nullptr)},
                                  {"terms", terms}});
        }
        all.push_back({{"peer", e.peer},
                       {"source", e.source},
                       {"applicable", e.notApplicable.empty()},
                       {"not_applicable", e.notApplicable.empty() ? json(nullptr) : json(e.notApplicable)},
                       {"conventions", e.conventions},
                       {"quantities", quantities}});
    }
    return all;
}

} // namespace napkin
