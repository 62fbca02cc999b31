// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/allocator/allocator_config.h"

#include <algorithm>
#include <charconv>
#include <vector>

namespace napkin {
namespace {

constexpr std::uint64_t kMiB = 1048576;
// kLargeBuffer / kMB: PyTorch refuses a smaller max_split_size_mb ("CachingAllocator option max_split_size_mb
// too small, must be >= 20"; AcceleratorAllocatorConfig::parseMaxSplitSize) and caps it at SIZE_MAX / kMB.
constexpr std::uint64_t kMinMaxSplitSizeMb = 20;
constexpr std::uint64_t kMaxMaxSplitSizeMb = std::numeric_limits<std::uint64_t>::max() / kMiB;

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::optional<std::uint64_t> wholeNumber(std::string_view s) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return value;
}

AllocatorConfigParse failure(std::string message) {
    return {std::nullopt, std::move(message)};
}

} // namespace

AllocatorConfigParse parseAllocatorConfig(std::string_view text) {
    AllocatorConfig config;
    std::vector<std::string> seen;
    std::string_view rest = trimmed(text);
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view pair = trimmed(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const std::size_t colon = pair.find(':');
        if (pair.empty() || colon == std::string_view::npos)
            return failure("'" + std::string(pair) + "': expected key:value, e.g. expandable_segments:True");
        const std::string key(trimmed(pair.substr(0, colon)));
        const std::string_view value = trimmed(pair.substr(colon + 1));
        for (const std::string& k : seen)
            if (k == key)
                return failure(key + ": given twice");
        seen.push_back(key);
        if (key == "expandable_segments") {
            // ConfigTokenizer::toBool: "True" or "False", nothing else
            if (value != "True" && value != "False")
                return failure(key + ": must be True or False, got '" + std::string(value) + "'");
            config.expandableSegments = value == "True";
        } else if (key == "max_split_size_mb") {
            const std::optional<std::uint64_t> mb = wholeNumber(value);
            if (!mb)
                return failure(key + ": must be a whole number of MiB, got '" + std::string(value) + "'");
            if (*mb < kMinMaxSplitSizeMb)
                return failure(key + ": must be at least 20 (PyTorch refuses a smaller one), got " +
                               std::string(value));
            config.maxSplitSizeBytes = std::min(*mb, kMaxMaxSplitSizeMb) * kMiB;
        } else if (key == "roundup_power2_divisions") {
            if (!value.empty() && value.front() == '[')
                return failure(key + ": the per-size list form is not simulated; give one number");
            const std::optional<std::uint64_t> d = wholeNumber(value);
            // AcceleratorAllocatorConfig::parseRoundUpPower2Divisions: llvm::isPowerOf2_64(val)
            if (!d || *d == 0 || (*d & (*d - 1)) != 0)
                return failure(key + ": must be a power of two, got '" + std::string(value) + "'");
            config.roundupPower2Divisions = *d;
        } else if (key == "garbage_collection_threshold" || key == "backend" ||
                   key == "max_non_split_rounding_mb" || key == "release_lock_on_cudamalloc" ||
                   key == "pinned_use_cuda_host_register" || key == "pinned_num_register_threads") {
            return failure(key + ": not simulated (expandable_segments, max_split_size_mb and "
                                 "roundup_power2_divisions are)");
        } else {
            return failure("'" + key + "': unknown key (expandable_segments, max_split_size_mb, "
                                       "roundup_power2_divisions)");
        }
    }
    return {config, {}};
}

std::string allocatorConfigText(const AllocatorConfig& config) {
    std::string text;
    const auto add = [&text](const std::string& pair) { text += (text.empty() ? "" : ",") + pair; };
    if (config.expandableSegments)
        add("expandable_segments:True");
    if (config.maxSplitSizeBytes != kAllocatorNoMaxSplit)
        add("max_split_size_mb:" + std::to_string(config.maxSplitSizeBytes / kMiB));
    if (config.roundupPower2Divisions > 1)
        add("roundup_power2_divisions:" + std::to_string(config.roundupPower2Divisions));
    return text;
}

} // namespace napkin
