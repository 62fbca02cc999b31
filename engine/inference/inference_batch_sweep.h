// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Decode speed against batch size: the inference accounting (inference_accounting.h) run once per batch,
// for the Inference page's tokens/s chart, and the batch at which a decode step turns compute bound.
// The step time is the accounting's roofline lower bound, so tokens/s here are upper bounds.
#include "engine/inference/inference_accounting.h"

#include <optional>
#include <string>
#include <vector>

namespace napkin {

struct BatchSweepPoint {
    double batch = 0;           ///< B
    double tokensPerSecond = 0; ///< decodeTokensPerSecond at this B
    double stepSeconds = 0;     ///< decodeSecondsPerToken at this B
    bool computeBound = false;  ///< bound == "compute"
    bool fits = false;          ///< memory per GPU within the capacity
    bool operator==(const BatchSweepPoint&) const = default;
};

struct BatchSweep {
    std::vector<BatchSweepPoint> points; ///< increasing B, from 1 to lastBatch
    double lastBatch = 0;                ///< the sweep's right end
    double maxBatch = 0;                 ///< the accounting's max_batch (0: not even one sequence fits)
    /// Smallest whole B whose decode step is compute bound, searched up to kSweepBatchLimit; none when
    /// the KV cache's reads grow with B as fast as the FLOPs do (long contexts: attention's intensity is
    /// only heads/kv_heads FLOPs per byte, far below any GPU's ridge).
    std::optional<double> crossoverBatch;
    Quantity crossover; ///< the same, with its formula; value 0 when there is none
};

/// The largest batch a sweep looks at, past the input's own.
inline constexpr double kSweepBatchLimit = 1 << 20;

/// Whole batches from 1 to `lastBatch` spaced evenly on a log scale, `perDoubling` per factor of two,
/// each once, increasing, `lastBatch` included.
std::vector<double> sweepBatches(double lastBatch, int perDoubling = 4);

/// The input at batches 1 … lastBatch; lastBatch is the next power of two at or above the largest of
/// 256, 2 × max_batch, 2 × the input's batch and 4 × the crossover, at most kSweepBatchLimit unless the
/// input's batch itself is past it (then the power of two at or above it).
/// Precondition: validateInference(input).ok(), `gpu` the input's GPU.
BatchSweep sweepInferenceBatch(const InferenceInput& input, const GpuSpec& gpu);

/// One sequence's KV cache: S·kv_per_token, all GPUs together.
Quantity kvCacheBytesPerSequence(const InferenceInput& input, const InferenceResult& result);

} // namespace napkin
