// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/peer_estimates_text.h"

#include "engine/numerics/quantity_format.h"

#include <sstream>

namespace napkin::cli {
namespace {

std::string value(double v, const std::string& unit) {
    return unit == "bytes" ? formatBytes(v) : formatNumber(v);
}

std::string signedValue(double v, const std::string& unit) {
    return (v < 0 ? "−" : "+") + value(v < 0 ? -v : v, unit);
}

} // namespace

std::string peerEstimatesText(const std::vector<PeerEstimate>& estimates) {
    std::ostringstream s;
    s << "compared with other calculators (peer − Napkin):\n";
    for (const PeerEstimate& e : estimates) {
        if (!e.notApplicable.empty()) {
            s << "  " << e.peer << ": no answer here: " << e.notApplicable << "\n";
            continue;
        }
        for (const PeerQuantity& q : e.quantities) {
            s << "  " << e.peer << ", " << q.name << ": " << value(q.peer, q.unit);
            if (q.napkin)
                s << ", Napkin " << value(*q.napkin, q.unit) << " (" << signedValue(q.difference(), q.unit)
                  << ")";
            s << "\n    " << q.peerFormula << "\n";
            for (const PeerTerm& t : q.terms)
                if (t.difference() != 0)
                    s << "    " << t.name << " " << signedValue(t.difference(), q.unit) << ": " << t.why
                      << "\n";
        }
        s << "    source: " << e.source << "\n";
    }
    return s.str();
}

} // namespace napkin::cli
