// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whole setups (model, training and hardware) under one name: the lecture's worked questions and today's
// models on a layout that fits. The one table behind `napkin-cli account --preset` and the app's preset
// box, so that a preset name means the same numbers on screen and on the command line.
#include "engine/accounting/accounting.h"

#include <span>
#include <string>
#include <string_view>

namespace napkin {

struct SetupPreset {
    std::string_view id;          ///< "gpt3-175b": what --preset takes
    std::string_view name;        ///< "GPT-3 175B on 1024 H100s, ZeRO-3, full recompute"
    std::string_view expectation; ///< what the lecture (or the model card) says the answer is
    AccountingInput input;        ///< every field set
};

/// 70b-15t-1024-h100, largest-8-h100, cruncher, gpt2-small, gpt3-175b, llama3-8b, llama3-70b,
/// llama3-405b, mixtral-8x7b, llama3-8b-qlora-24gb, llama3-8b-lora-h100, in the order the app offers them.
std::span<const SetupPreset> setupPresets();
/// By id or by name, case-insensitively; nullptr when unknown.
const SetupPreset* findSetupPreset(std::string_view idOrName);
/// "70b-15t-1024-h100, largest-8-h100, ..." for help texts and error messages.
std::string setupPresetIds();

} // namespace napkin
