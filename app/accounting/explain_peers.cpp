// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/explain_peers.h"

#include "app/accounting/explain_html.h"
#include "engine/peers/peer_estimates.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

using explain_html::cell;
using explain_html::code;
using explain_html::heading;
using explain_html::n;
using explain_html::q;

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainPeers", text);
}

QString value(double v, const PeerQuantity& quantity, ByteUnits units) {
    return quantity.unit == "bytes" ? q(formatBytes(v, units)) : n(v);
}

QString signedValue(double v, const PeerQuantity& quantity, ByteUnits units) {
    return (v < 0 ? QStringLiteral("−") : QStringLiteral("+")) + value(v < 0 ? -v : v, quantity, units);
}

QString quantityRows(const PeerQuantity& quantity, ByteUnits units) {
    QString text = QStringLiteral("<tr>") + cell(q(quantity.name)) +
                   cell(value(quantity.peer, quantity, units)) +
                   cell(quantity.napkin ? value(*quantity.napkin, quantity, units) : tr("not counted")) +
                   cell(quantity.napkin ? signedValue(quantity.difference(), quantity, units) : QString()) +
                   QStringLiteral("</tr>");
    text += QStringLiteral("<tr><td></td><td colspan=\"3\">%1</td></tr>").arg(code(quantity.peerFormula));
    for (const PeerTerm& term : quantity.terms)
        if (term.difference() != 0)
            text += QStringLiteral("<tr><td></td><td colspan=\"3\">%1 <b>%2</b>: %3</td></tr>")
                        .arg(q(term.name), signedValue(term.difference(), quantity, units), q(term.why));
    return text;
}

QString peerSection(const PeerEstimate& e, ByteUnits units) {
    QString text = QStringLiteral("<p><b>%1</b><br><small>%2</small></p>").arg(q(e.peer), q(e.source));
    if (!e.notApplicable.empty())
        return text + tr("<p>No answer for this setup: %1.</p>").arg(q(e.notApplicable));
    text += QStringLiteral("<table cellspacing=\"6\"><tr><th align=\"left\">%1</th><th>%2</th><th>%3</th>"
                           "<th>%4</th></tr>")
                .arg(tr("quantity"), q(e.peer), tr("Napkin"), tr("peer − Napkin"));
    for (const PeerQuantity& quantity : e.quantities)
        text += quantityRows(quantity, units);
    text += QStringLiteral("</table>");
    QString conventions;
    for (const std::string& c : e.conventions)
        conventions += QStringLiteral("<li>%1</li>").arg(q(c));
    return text + tr("<p>It assumes:</p><ul>%1</ul>").arg(conventions);
}

} // namespace

QString explainPeers(const AccountingInput& input, const AccountingResult& result, ByteUnits units) {
    QString text = heading(tr("Compared with other calculators"));
    text +=
        tr("<p>What other calculators would report for this setup, each from its published formula, beside "
           "Napkin's number. The named terms add up to the difference: each is a convention the peer "
           "holds (its bytes per parameter, its first pipeline stage) or an error in its formula, with "
           "the file it comes from.</p>");
    for (const PeerEstimate& e : peerEstimates(input, result))
        text += peerSection(e, units);
    return text;
}
