// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/inference/inference_batch_sweep.h"

#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <cmath>

namespace napkin {
namespace {

InferenceResult atBatch(InferenceInput input, const GpuSpec& gpu, double batch) {
    input.batch = batch;
    return accountInference(input, gpu);
}

bool computeBoundAt(const InferenceInput& input, const GpuSpec& gpu, double batch) {
    return atBatch(input, gpu, batch).bound == "compute";
}

double nextPowerOfTwo(double v) {
    return std::exp2(std::ceil(std::log2(std::max(v, 1.0))));
}

// The smallest compute-bound B in [1, kSweepBatchLimit] by bisection: the step's FLOPs grow as B while
// its bytes grow as weights_read(B) + B·S·kv_per_token, so the bound flips at most once.
std::optional<double> findCrossover(const InferenceInput& input, const GpuSpec& gpu) {
    if (computeBoundAt(input, gpu, 1))
        return 1.0;
    if (!computeBoundAt(input, gpu, kSweepBatchLimit))
        return std::nullopt;
    double memory = 1, compute = kSweepBatchLimit; // memory bound at `memory`, compute bound at `compute`
    while (compute - memory > 1) {
        const double mid = std::floor((memory + compute) / 2);
        (computeBoundAt(input, gpu, mid) ? compute : memory) = mid;
    }
    return compute;
}

} // namespace

std::vector<double> sweepBatches(double lastBatch, int perDoubling) {
    std::vector<double> batches{1};
    const auto steps = static_cast<int>(std::ceil(std::log2(std::max(lastBatch, 1.0)) * perDoubling));
    for (int i = 1; i <= steps; ++i) {
        const double b = std::min(lastBatch, std::round(std::exp2(static_cast<double>(i) / perDoubling)));
        if (b > batches.back())
            batches.push_back(b);
    }
    return batches;
}

BatchSweep sweepInferenceBatch(const InferenceInput& input, const GpuSpec& gpu) {
    BatchSweep sweep;
    const InferenceResult here = accountInference(input, gpu);
    sweep.maxBatch = here.maxBatch.value;
    sweep.crossoverBatch = findCrossover(input, gpu);
    if (sweep.crossoverBatch) {
        const double b = *sweep.crossoverBatch;
        const InferenceResult at = atBatch(input, gpu, b);
        sweep.crossover = {b,
                           "smallest B with B·decode_flops_per_token/(N·peak) > step_bytes(B)/(N·bandwidth): "
                           "at B = " +
                               formatNumber(b) + ", " + at.decodeSecondsPerToken.formula};
    } else {
        sweep.crossover = {0, "none up to B = " + formatNumber(kSweepBatchLimit) +
                                  ": step_bytes grow by S·kv_per_token per sequence, which costs more time "
                                  "than its decode_flops_per_token do at this GPU's ridge"};
    }
    const double wanted =
        std::max({256.0, 2 * sweep.maxBatch, 2 * input.batch, 4 * sweep.crossoverBatch.value_or(0)});
    // The input's own batch is always on the chart, however far past the limit it was typed (napkin-cli and
    // the page take up to 1e9, inference_knobs.h).
    sweep.lastBatch = std::max(std::min(kSweepBatchLimit, nextPowerOfTwo(wanted)), nextPowerOfTwo(input.batch));
    for (const double b : sweepBatches(sweep.lastBatch)) {
        const InferenceResult r = atBatch(input, gpu, b);
        sweep.points.push_back(
            {b, r.decodeTokensPerSecond.value, r.decodeSecondsPerToken.value, r.bound == "compute", r.fits});
    }
    return sweep;
}

Quantity kvCacheBytesPerSequence(const InferenceInput& input, const InferenceResult& result) {
    const double bytes = input.context * result.kvCacheBytesPerToken.value;
    return {bytes, "S·kv_per_token = " + formatNumber(input.context) + " × " +
                       formatExact(result.kvCacheBytesPerToken.value) + " = " + formatExact(bytes) + " B"};
}

} // namespace napkin
