// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lecture's get_batch: B random windows of L consecutive tokens from a memory-mapped token file,
// start offsets uniform in [0, N − L) as torch.randint(len(data) − L, (B,)) draws them.
#include "engine/lessons/token_dataset.h"

#include <cstdint>
#include <random>
#include <vector>

namespace napkin {

struct TokenBatch {
    long batch = 0;                     ///< B
    long context = 0;                   ///< L
    std::vector<std::uint64_t> offsets; ///< B start tokens
    std::vector<std::int32_t>
        tokens; ///< B×L, row-major: row b is the file's tokens [offsets[b], offsets[b] + L)
};

class BatchSampler {
public:
    /// Keeps a reference to `dataset` (which must outlive the sampler). Throws std::invalid_argument for
    /// B or L < 1, B·L > 2^27, or a window that does not fit: L must be less than the file's token count.
    BatchSampler(const TokenDataset& dataset, long batch, long context, std::uint64_t seed);

    /// Draws the next B offsets and copies their windows out of the mapping.
    TokenBatch next();

private:
    /// Uniform in [0, n) by rejection on 64-bit draws: the same sequence on every standard library.
    std::uint64_t uniformBelow(std::uint64_t n);

    const TokenDataset* dataset_;
    long batch_, context_;
    std::mt19937_64 engine_;
};

} // namespace napkin
