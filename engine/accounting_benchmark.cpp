#include "engine/accounting_benchmark.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace napkin {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
    // Linear interpolation between closest ranks (NumPy's default).
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const auto above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

} // namespace

TimingSummary summarizeTimings(std::vector<double> seconds) {
    TimingSummary s;
    if (seconds.empty())
        return s;
    std::sort(seconds.begin(), seconds.end());
    s.samples = static_cast<int>(seconds.size());
    s.medianSeconds = quantile(seconds, 0.5);
    s.p20Seconds = quantile(seconds, 0.2);
    s.p80Seconds = quantile(seconds, 0.8);
    s.minSeconds = seconds.front();
    s.maxSeconds = seconds.back();
    return s;
}

TimingSummary benchmarkAccounting(const AccountingInput& input, int repeats, int callsPerSample) {
    using Clock = std::chrono::steady_clock;
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(input.gpu);
    double sink = 0; // keeps the optimiser from discarding the work
    for (int i = 0; i < callsPerSample; ++i)
        sink += account(input, gpu).memory.total.value;
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(repeats));
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        for (int i = 0; i < callsPerSample; ++i)
            sink += account(input, gpu).memory.total.value;
        const std::chrono::duration<double> elapsed = Clock::now() - start;
        samples.push_back(elapsed.count() / callsPerSample);
    }
    TimingSummary summary = summarizeTimings(std::move(samples));
    if (sink < 0) // never true; makes `sink` observable
        summary.samples = -1;
    return summary;
}

} // namespace napkin
