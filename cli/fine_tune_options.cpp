// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/fine_tune_options.h"

#include "cli/enum_option.h"
#include "cli/number_option.h"

#include <CLI/CLI.hpp>

namespace napkin::cli {

void addFineTuneOptions(CLI::App& sub, FineTuneOptions& o) {
    sub.add_option("--finetune", o.method,
                   joinNames(enumNames(allFineTuneMethods(), fineTuneMethodName)) +
                       ": every parameter trains, or LoRA adapters on a frozen base (QLoRA: in NF4) "
                       "(default full)")
        ->check(CLI::IsMember(enumNames(allFineTuneMethods(), fineTuneMethodName)));
    sub.add_option("--lora-rank", o.rank, "LoRA rank r (default 16)");
    sub.add_option("--lora-alpha", o.alpha,
                   "LoRA alpha; the adapters' output is scaled by alpha/r (default 32)");
    sub.add_option("--lora-targets", o.targets,
                   "matrices to adapt: a comma list of q,k,v,o,gate,up,down (or q_proj, ...), or all-linear "
                   "(default)");
    sub.add_option("--offload", o.offload,
                   joinNames(enumNames(allOffloads(), offloadName)) +
                       ": master weights and optimizer state (and the weights) on the host, as ZeRO-Offload "
                       "(default none)")
        ->check(CLI::IsMember(enumNames(allOffloads(), offloadName)));
}

void applyFineTuneOptions(const FineTuneOptions& o, FineTuning& ft) {
    if (!o.method.empty())
        ft.method = *fineTuneMethodFromName(o.method); // CLI11 checked membership
    if (!o.offload.empty())
        ft.offload = *offloadFromName(o.offload);
    if (!o.rank.empty())
        ft.rank = parseNumberOption("--lora-rank", o.rank);
    if (!o.alpha.empty())
        ft.alpha = parseNumberOption("--lora-alpha", o.alpha);
    if (!o.targets.empty()) {
        const auto targets = loraTargetsFromText(o.targets);
        if (!targets)
            throw UsageError("--lora-targets: '" + o.targets +
                             "' is not a comma list of q, k, v, o, gate, up, down (each once) or all-linear");
        ft.targets = *targets;
    }
    const bool loraOption = !o.rank.empty() || !o.alpha.empty() || !o.targets.empty();
    if (loraOption && !hasAdapters(ft))
        throw UsageError(std::string(!o.rank.empty()    ? "--lora-rank"
                                     : !o.alpha.empty() ? "--lora-alpha"
                                                        : "--lora-targets") +
                         ": needs --finetune lora or qlora");
}

} // namespace napkin::cli
