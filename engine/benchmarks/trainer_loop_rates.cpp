// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/trainer_loop_rates.h"

#include "engine/accounting/optimizer_kind.h"
#include "engine/compute/counter_normal.h"
#include "engine/compute/cpu/optimizer_step.h"
#include "engine/numerics/timing_summary.h"

#include <algorithm>
#include <chrono>
#include <functional>

namespace napkin {
namespace {

// The median seconds of `repeats` calls after one warm-up (the pages touched, the state made).
double medianSeconds(const std::function<void()>& work, int repeats) {
    work();
    std::vector<double> seconds;
    for (int i = 0; i < std::max(1, repeats); ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return summarizeTimings(std::move(seconds)).medianSeconds;
}

} // namespace

double measureNormalDrawsPerSecond(std::size_t elements, int repeats) {
    std::vector<float> batch(elements);
    std::uint64_t stream = 1;
    const double seconds = medianSeconds(
        [&] {
            fillCounterNormal(batch.data(), batch.size(), 1,
                              cruncherBatchStream(static_cast<long>(stream++)));
        },
        repeats);
    return seconds > 0 ? static_cast<double>(elements) / seconds : 0;
}

std::vector<UpdateRate> measureCruncherUpdates(std::size_t elements, int repeats) {
    std::vector<UpdateRate> rates;
    std::vector<float> p(elements, 0.5f), g(elements, 1e-3f), s1(elements, 0.0f), s2(elements, 0.0f);
    const OptimizerHyper hyper; // the arithmetic does not depend on the figures
    for (const OptimizerKind kind : allOptimizers()) {
        const int states = stateTensorsPerParameter(kind);
        long step = 1;
        const double seconds = medianSeconds(
            [&] {
                applyOptimizerStep(kind, hyper, step++, p, g,
                                   states > 0 ? std::span<float>(s1) : std::span<float>(),
                                   states > 1 ? std::span<float>(s2) : std::span<float>());
            },
            repeats);
        const double bytes = static_cast<double>(elements) * (4 + 8 + 8.0 * states);
        if (seconds > 0)
            rates.push_back({kind, OptimizerImplementation::fused, StorageType::fp32,
                             static_cast<double>(elements), bytes / seconds});
    }
    return rates;
}

} // namespace napkin
