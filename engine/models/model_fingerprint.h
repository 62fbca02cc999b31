// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A quick fingerprint of a model's sizes, for the caches a search hits on every probe (the activation
// ledgers, the parameter totals, the timeline's per-layer bytes): comparing a ModelSpec is about 45 fields,
// and a lookup that compared every slot's whole spec cost more than the ledger it found.
#include "engine/models/model_spec.h"

#include <cstdint>

namespace napkin {

/// Equal specs have equal fingerprints (−0 and 0 alike), so a cache compares it before the whole spec.
/// Specs differing only in a field left out (the options a search never varies) share a fingerprint and are
/// told apart by operator==.
std::uint64_t modelFingerprint(const ModelSpec& model);

} // namespace napkin
