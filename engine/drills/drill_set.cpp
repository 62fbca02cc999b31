// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/drills/drill_set.h"

#include "engine/drills/drill_generators.h"

#include <algorithm>

namespace napkin {
namespace {

DrillQuestion ask(DrillTopic topic, DrillRandom& dice) {
    switch (topic) {
    case DrillTopic::tensorBytes:
        return tensorBytesDrill(dice);
    case DrillTopic::dtype:
        return dtypeDrill(dice);
    case DrillTopic::strides:
        return stridesDrill(dice);
    case DrillTopic::views:
        return viewsDrill(dice);
    case DrillTopic::matmulFlops:
        return matmulFlopsDrill(dice);
    case DrillTopic::linearStackFlops:
        return linearStackFlopsDrill(dice);
    case DrillTopic::trainingTime:
        return trainingTimeDrill(dice);
    case DrillTopic::bytesPerParameter:
        return bytesPerParameterDrill(dice);
    case DrillTopic::largestModel:
        return largestModelDrill(dice);
    case DrillTopic::activations:
        return activationsDrill(dice);
    case DrillTopic::kvCache:
        return kvCacheDrill(dice);
    }
    return tensorBytesDrill(dice);
}

// SplitMix64's finaliser: nearby (seed, index) pairs give unrelated engine seeds.
std::uint64_t mix(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

} // namespace

DrillQuestion generateDrill(std::uint64_t seed, int index, std::optional<DrillTopic> topic) {
    const auto topics = allDrillTopics();
    const DrillTopic chosen = topic ? *topic : topics[static_cast<std::size_t>(index) % topics.size()];
    DrillRandom dice(mix(seed, static_cast<std::uint64_t>(index)));
    return ask(chosen, dice);
}

std::vector<DrillQuestion> generateDrills(std::uint64_t seed, int count, std::optional<DrillTopic> topic) {
    std::vector<DrillQuestion> questions;
    questions.reserve(static_cast<std::size_t>(std::max(count, 0)));
    for (int i = 0; i < count; ++i)
        questions.push_back(generateDrill(seed, i, topic));
    return questions;
}

} // namespace napkin
