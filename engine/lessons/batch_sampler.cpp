// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lessons/batch_sampler.h"

#include <stdexcept>
#include <string>

namespace napkin {

BatchSampler::BatchSampler(const TokenDataset& dataset, long batch, long context, std::uint64_t seed)
    : dataset_(&dataset)
    , batch_(batch)
    , context_(context)
    , engine_(seed) {
    if (batch < 1 || context < 1)
        throw std::invalid_argument("batch and context length must be at least 1");
    // A batch is copied out whole: keep it to 2^27 tokens (512 MiB as int32), far above any lesson's.
    if (static_cast<double>(batch) * static_cast<double>(context) > 134217728.0)
        throw std::invalid_argument("a batch of " + std::to_string(batch) + "×" + std::to_string(context) +
                                    " tokens is too large to copy out (at most 2^27 tokens)");
    if (static_cast<std::uint64_t>(context) >= dataset.tokens())
        throw std::invalid_argument("a window of " + std::to_string(context) + " tokens does not fit in " +
                                    dataset.path() + " (" + std::to_string(dataset.tokens()) +
                                    " tokens): the context length must be less than the file's token count");
}

std::uint64_t BatchSampler::uniformBelow(std::uint64_t n) {
    // Reject the top partial block of 2^64 so that every value below n is equally likely.
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t draw = engine_();
    while (draw >= limit)
        draw = engine_();
    return draw % n;
}

TokenBatch BatchSampler::next() {
    TokenBatch out;
    out.batch = batch_;
    out.context = context_;
    const auto L = static_cast<std::uint64_t>(context_);
    out.offsets.reserve(static_cast<std::size_t>(batch_));
    out.tokens.resize(static_cast<std::size_t>(batch_) * L);
    for (long b = 0; b < batch_; ++b) {
        const std::uint64_t offset = uniformBelow(dataset_->tokens() - L);
        out.offsets.push_back(offset);
        dataset_->copyTokens(offset, L, out.tokens.data() + static_cast<std::size_t>(b) * L);
    }
    return out;
}

} // namespace napkin
