// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/planning/plan_benchmark.h"

#include "engine/models/model_presets.h"
#include "engine/planning/layout_search.h"
#include "engine/steptime/published_profiles.h"

#include <chrono>
#include <vector>

namespace napkin {
namespace {

PlanBenchmarkSetup megatronGpt3() {
    PlanBenchmarkSetup s{std::string(kDefaultPlanBenchmark),
                         "GPT-3 175B on 1024 x A100-SXM, 1536 x 2048 tokens per step, Megatron-LM's tp 8, pp 8, "
                         "96 micro-batches of 1, full recompute, mixed-bf16 Adam",
                         {},
                         1.0};
    AccountingInput& in = s.input;
    in.model = findModelPreset("gpt3-175b")->model;
    in.precision = PrecisionRecipe::mixedBf16;
    in.optimizer = OptimizerKind::adam;
    in.gpu = "A100-SXM";
    in.gpus = 1024;
    in.parallel.tp = 8;
    in.parallel.pp = 8;
    in.parallel.microbatches = 96; // 1536 sequences = 1 × 96 × dp 16
    in.batch = 1;
    in.recompute = Recompute::full;
    return s;
}

PlanBenchmarkSetup gpt2Small() {
    PlanBenchmarkSetup s{"gpt2-small-8", "GPT-2 small on 8 x H100-SXM, 64 x 1024 tokens per step, DDP, mixed-bf16 AdamW",
                         {}, 0.05};
    AccountingInput& in = s.input;
    in.model = findModelPreset("gpt2-small")->model;
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpus = 8;
    in.batch = 8;
    return s;
}

} // namespace

std::optional<PlanBenchmarkSetup> planBenchmarkSetup(std::string_view id) {
    if (id == kDefaultPlanBenchmark)
        return megatronGpt3();
    if (id == "gpt2-small-8")
        return gpt2Small();
    return std::nullopt;
}

std::string planBenchmarkSetupIds() {
    return std::string(kDefaultPlanBenchmark) + ", gpt2-small-8";
}

PlanBenchmarkRun benchmarkPlan(const PlanBenchmarkSetup& setup, int repeats) {
    using Clock = std::chrono::steady_clock;
    const GpuCatalog& catalog = GpuCatalog::builtIn();
    const HardwareProfile profile = publishedProfile(*catalog.find(setup.input.gpu)).profile.value_or(HardwareProfile{});
    PlanBenchmarkRun run;
    run.counts = planLayouts(setup.input, catalog, profile).counts; // warm-up: caches, the config zoo
    std::vector<double> samples;
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        const LayoutPlan plan = planLayouts(setup.input, catalog, profile);
        const std::chrono::duration<double> elapsed = Clock::now() - start;
        samples.push_back(elapsed.count());
        run.sameCountsEachTime = run.sameCountsEachTime && plan.counts == run.counts;
    }
    run.timing = summarizeTimings(std::move(samples));
    return run;
}

} // namespace napkin
