// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The vision tower of a multimodal config.json, counted apart from the language model: Gemma 3's SigLIP
// encoder and its projector into the text width.
#include <nlohmann/json_fwd.hpp>

#include <optional>

namespace napkin {

/// Parameters of Gemma 3's vision tower (SiglipVisionModel without its pooling head) and
/// Gemma3MultiModalProjector, from `vision` (the file's vision_config) and the text model's width
/// `textHidden`; nullopt when a size is missing or vision_use_head is not false (the head is not counted).
/// Per layer 4·(d² + d) + 2·2·d + 2·d·f + f + d; patches c·p²·d + d; positions (image/p)²·d; a final
/// LayerNorm 2·d; projector d·d_text + d (RMSNorm). Gemma 3 4B: 416,866,032 + 2,950,272.
std::optional<double> gemma3VisionParameters(const nlohmann::json& vision, double textHidden);

} // namespace napkin
