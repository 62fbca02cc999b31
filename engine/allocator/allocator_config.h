// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PYTORCH_CUDA_ALLOC_CONF as far as the simulated caching allocator follows it (caching_allocator_simulation.h):
// "expandable_segments:True,max_split_size_mb:128,roundup_power2_divisions:4". The keys and their checks are
// PyTorch's (c10/core/AllocatorConfig.cpp, AcceleratorAllocatorConfig::parseArgs and its parse* functions,
// pytorch/pytorch at 01f9ef32eae5ef513002dd44902c23cbe6be3aae); keys that change nothing the simulation
// models (garbage_collection_threshold needs a memory fraction, backend:cudaMallocAsync is another allocator)
// are refused by name rather than ignored.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace napkin {

inline constexpr std::uint64_t kAllocatorNoMaxSplit = std::numeric_limits<std::uint64_t>::max();

struct AllocatorConfig {
    /// max_split_size_mb · 2^20: free blocks at least this large are not split, and a request below it never
    /// takes one; unset (SIZE_MAX in PyTorch): every block may be split.
    std::uint64_t maxSplitSizeBytes = kAllocatorNoMaxSplit;
    /// roundup_power2_divisions (one number for every size): a request above 512 B · divisions is rounded up
    /// to the next of `divisions` equal steps between two powers of two; 0 or 1: 512-byte rounding only.
    std::uint64_t roundupPower2Divisions = 0;
    /// expandable_segments:True: one segment per pool that grows by mapping 20 MiB (large pool) or 2 MiB
    /// (small pool) pages, instead of one cudaMalloc per segment.
    bool expandableSegments = false;
    bool operator==(const AllocatorConfig&) const = default;
};

/// The settings, or one line that names the field at fault ("max_split_size_mb: must be at least 20 …").
struct AllocatorConfigParse {
    std::optional<AllocatorConfig> config;
    std::string error;
};

/// Parses PYTORCH_CUDA_ALLOC_CONF's text: comma-separated key:value pairs; an empty text is the defaults.
AllocatorConfigParse parseAllocatorConfig(std::string_view text);

/// The settings as PYTORCH_CUDA_ALLOC_CONF text, defaults left out ("" for the defaults).
std::string allocatorConfigText(const AllocatorConfig& config);

} // namespace napkin
