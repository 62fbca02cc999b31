// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What another calculator would report for a setup, beside Napkin's own number, with the terms that make
// the difference named. Plain values: the CLI's JSON (peer_estimates) and the "How is this computed?" pane
// show the same structs.
#include <optional>
#include <string>
#include <vector>

namespace napkin {

/// One named piece of a difference: what the peer counts for it and what Napkin counts.
struct PeerTerm {
    std::string name;  ///< "fp32 gradient partition", "vocabulary padding"
    double peer = 0;   ///< the peer's value of this piece (bytes or FLOPs per token)
    double napkin = 0; ///< Napkin's value of the same piece
    std::string why;   ///< the convention or error behind it, with the file it comes from
    double difference() const { return peer - napkin; }
};

/// One number the peer reports (model states per GPU, activations per GPU, FLOPs per token).
struct PeerQuantity {
    std::string name;             ///< "model states per GPU"
    std::string unit;             ///< "bytes" or "FLOPs per token"
    double peer = 0;              ///< what the peer's formula gives for this setup
    std::string peerFormula;      ///< the peer's formula with the numbers substituted
    std::optional<double> napkin; ///< Napkin's number for the same quantity; unset where it has none
    std::string napkinMeaning;    ///< which of Napkin's numbers it is ("memory_bytes: parameters + ...")
    /// The pieces whose differences add up to peer − napkin; a piece "other" holds any remainder.
    std::vector<PeerTerm> terms;
    double difference() const { return napkin ? peer - *napkin : 0.0; }
};

/// What one calculator would answer.
struct PeerEstimate {
    std::string peer;                     ///< "DeepSpeed ZeRO-3 estimator"
    std::string source;                   ///< repository, file, function and the commit read
    std::vector<PeerQuantity> quantities; ///< empty where the peer cannot express the setup
    std::vector<std::string> conventions; ///< what the peer assumes, whatever the setup
    std::string notApplicable;            ///< why the peer has no answer for this setup; empty if it has
};

} // namespace napkin
