// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long one full recompute of the accounting takes, and how much work it does: the GUI recomputes on
// every slider tick, so this must stay far below a frame (targets: 20 µs for GPT-2 small, 50 µs for the
// largest shipped model, DeepSeek-V3, with every answer filled in).
#include "engine/accounting/accounting.h"
#include "engine/numerics/timing_summary.h"
#include "engine/numerics/work_counts.h"

#include <optional>
#include <string>
#include <string_view>

namespace napkin {

/// A setup to time: what `napkin-cli bench account --setup ID` takes.
struct AccountingBenchmarkSetup {
    std::string id;            ///< "gpt2-small"
    std::string configuration; ///< "GPT-2 small, mixed-bf16, AdamW, 8 x H100-SXM, ZeRO-1"
    AccountingInput input;
    double targetSeconds = 20e-6; ///< the median one account() must stay under
};

/// The default setup id: GPT-2 small, the heaviest formula strings per layer.
inline constexpr std::string_view kDefaultAccountingBenchmark = "gpt2-small";

/// "gpt2-small" (the default), "deepseek-v3" (the shipped config on one H100 in mixed bf16 for 14.8T
/// tokens, as the page opens it: it does not fit, so the fit advice runs too), or any setup preset's id
/// (setup_presets.h). nullopt when unknown.
std::optional<AccountingBenchmarkSetup> accountingBenchmarkSetup(std::string_view id);
/// "gpt2-small, deepseek-v3, 70b-15t-1024-h100, ..." for help texts and error messages.
std::string accountingBenchmarkSetupIds();

/// A GPT-2 small configuration (the default setup's input).
AccountingInput accountingBenchmarkInput();
/// A slider tick recomputes everything: far below a frame.
inline constexpr double kAccountingBenchmarkTargetSeconds = 20e-6;

/// Times `account` on `input` (warm-up, then `repeats` samples of `callsPerSample` calls each,
/// steady clock); each sample is the mean seconds per call. Precondition: input is valid.
TimingSummary benchmarkAccounting(const AccountingInput& input, int repeats = 51, int callsPerSample = 200);

/// The work one account() of `input` does (work_counts.h): deterministic, the same on every machine.
WorkCounts accountingWork(const AccountingInput& input);

} // namespace napkin
