// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// napkin-cli account's fine-tuning options: --finetune, --lora-rank, --lora-alpha, --lora-targets,
// --offload. Raw text; empty: not given, so the preset's value (or the default) stands.
#include "engine/accounting/fine_tuning.h"

#include <string>

namespace CLI {
class App;
}

namespace napkin::cli {

struct FineTuneOptions {
    std::string method, rank, alpha, targets, offload;
};

void addFineTuneOptions(CLI::App& command, FineTuneOptions& options);
/// Applies the options given on top of `fineTuning`; throws UsageError naming the option on a bad value.
void applyFineTuneOptions(const FineTuneOptions& options, FineTuning& fineTuning);

} // namespace napkin::cli
