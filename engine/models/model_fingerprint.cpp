// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/model_fingerprint.h"

#include <bit>

namespace napkin {

std::uint64_t modelFingerprint(const ModelSpec& m) {
    // FNV-1a over the bit patterns of the sizes that tell models apart (L, S, d, a, V, ...).
    std::uint64_t h = 14695981039346656037ULL;
    const auto mix = [&h](double v) {
        h ^= std::bit_cast<std::uint64_t>(v == 0 ? 0.0 : v); // −0 == 0: one fingerprint
        h *= 1099511628211ULL;
    };
    mix(static_cast<double>(m.kind));
    mix(static_cast<double>(m.activationsOf));
    mix(m.parameters);
    mix(m.dim);
    mix(m.layers);
    mix(m.dModel);
    mix(m.heads);
    mix(m.vocab);
    mix(m.seq);
    mix(m.kvHeads);
    mix(m.ffnDim);
    mix(m.experts);
    mix(static_cast<double>(m.attentionImpl));
    mix(m.dropout ? 1.0 : 0.0);
    return h;
}

} // namespace napkin
