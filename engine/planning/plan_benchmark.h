// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long the layout search takes (`napkin-cli bench plan`, docs/benchmarks.md): targets 1 s for GPT-3
// 175B on 1024 GPUs and 50 ms for GPT-2 small on 8, on the project's 2-core machine, in a Release build.
#include "engine/numerics/timing_summary.h"
#include "engine/planning/layout_plan.h"

#include <optional>
#include <string>
#include <string_view>

namespace napkin {

/// A setup to plan: what `napkin-cli bench plan --setup ID` takes.
struct PlanBenchmarkSetup {
    std::string id;            ///< "gpt3-175b-1024"
    std::string configuration; ///< in words, with the layout given
    AccountingInput input;     ///< the base, its layout the one the search places in the ranking
    double targetSeconds = 1;  ///< the median one search must stay under
};

/// The default setup id: the largest search the issue sets a target for.
inline constexpr std::string_view kDefaultPlanBenchmark = "gpt3-175b-1024";

/// "gpt3-175b-1024": Megatron-LM's GPT-3 175B layout (Narayanan et al. 2021, Table 1: tp 8, pp 8, 1024
/// A100 80 GB GPUs, 1536 sequences of 2048 tokens per step, activation recomputation; a micro-batch of 1,
/// Adam in mixed bf16, eager attention, no ZeRO assumed), target 1 s; "gpt2-small-8": GPT-2 small on
/// 8 H100s, 64 sequences per step, plain data parallelism, target 50 ms. nullopt when unknown.
std::optional<PlanBenchmarkSetup> planBenchmarkSetup(std::string_view id);
/// "gpt3-175b-1024, gpt2-small-8" for help texts and error messages.
std::string planBenchmarkSetupIds();

struct PlanBenchmarkRun {
    TimingSummary timing; ///< seconds per whole search (planLayouts with pruning, top 5)
    PlanCounts counts;    ///< the work one search did
    bool sameCountsEachTime = true; ///< every timed search counted what the warm-up did (it is deterministic)
};

/// Times planLayouts on `setup` from its GPU's published profile: one warm-up, then `repeats` searches,
/// each a sample (steady clock).
PlanBenchmarkRun benchmarkPlan(const PlanBenchmarkSetup& setup, int repeats);

} // namespace napkin
