#include "engine/benchmarks/accounting_benchmark.h"

#include <chrono>
#include <vector>

namespace napkin {

AccountingInput accountingBenchmarkInput() {
    AccountingInput in;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = 768;
    in.model.layers = 12;
    in.model.heads = 12;
    in.model.vocab = 50257;
    in.model.seq = 1024;
    in.batch = 8;
    in.trainingTokens = 300e9;
    in.precision = PrecisionRecipe::mixedBf16;
    in.gpus = 8;
    in.zeroStage = 1;
    return in;
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
