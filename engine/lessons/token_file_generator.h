// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Demo token files for the data-loading lesson, and the sizes of ones too big to create.
#include "engine/lessons/token_dataset.h"

#include <cstdint>
#include <functional>
#include <string>

namespace napkin {

/// Token i of a demo file: a splitmix64 hash of (seed, i) reduced to the vocabulary (uint16: 50257,
/// GPT-2's; int32: 2^31 − 1), so a test can check any window without reading the file.
std::int32_t demoTokenAt(std::uint64_t index, std::uint64_t seed, TokenType type);

/// Writes `tokens` demo tokens to `path` through PATH.tmp + rename (no half file at PATH on failure),
/// flushes it to disk and drops it from the page cache (so a fresh mapping starts with nothing resident).
/// `progress(fraction)` returning false cancels (the temp file is removed). Throws std::runtime_error.
void writeDemoTokenFile(const std::string& path, std::uint64_t tokens, TokenType type, std::uint64_t seed,
                        const std::function<bool(double)>& progress = {});

/// A dataset sized by accounting, not created: bytes = tokens · bytes per token.
struct DatasetSizing {
    double bytes = 0;
    double tokens = 0;
    double pages = 0;            ///< bytes / page size
    double batchBytes = 0;       ///< B·L·bytes per token: what one get_batch copies out
    double batchPagesAtMost = 0; ///< B·(⌈L·bytes/page⌉ + 1): pages one batch can touch
};
/// The lecture's example: 2.8 TB of int32 tokens = 7e11 tokens.
DatasetSizing sizeDataset(double bytes, TokenType type, long batch, long context, double pageBytes);

} // namespace napkin
