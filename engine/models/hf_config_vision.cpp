// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/hf_config_vision.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace napkin {
namespace {

std::optional<double> whole(const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number())
        return std::nullopt;
    const double v = it->get<double>();
    if (!std::isfinite(v) || v <= 0 || v != std::floor(v) || v > 1e7)
        return std::nullopt;
    return v;
}

} // namespace

std::optional<double> gemma3VisionParameters(const nlohmann::json& vision, double textHidden) {
    if (!vision.is_object())
        return std::nullopt;
    const auto head = vision.find("vision_use_head");
    if (head == vision.end() || !head->is_boolean() || head->get<bool>())
        return std::nullopt; // SiglipVisionConfig's default is a pooling head, which Gemma 3 does not build
    const auto d = whole(vision, "hidden_size"), f = whole(vision, "intermediate_size"),
               L = whole(vision, "num_hidden_layers"), image = whole(vision, "image_size"),
               patch = whole(vision, "patch_size");
    if (!d || !f || !L || !image || !patch || std::fmod(*image, *patch) != 0)
        return std::nullopt;
    const double channels = whole(vision, "num_channels").value_or(3); // SiglipVisionConfig: num_channels=3
    const double positions = (*image / *patch) * (*image / *patch);
    const double layer = 4 * (*d * *d + *d) + 2 * 2 * *d + 2 * *d * *f + *f + *d;
    const double tower = channels * *patch * *patch * *d + *d + positions * *d + *L * layer + 2 * *d;
    const double projector = *d * textHidden + *d;
    return tower + projector;
}

} // namespace napkin
