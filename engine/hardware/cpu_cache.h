// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU's last-level cache as Linux's sysfs describes it: what a memory-bandwidth measurement must
// step well past, so that it streams from memory rather than from cache.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace napkin {

/// sysfs cache "size" text in bytes: "48K" → 49152, "266240K", "32M", "1G", "512" (K = 1024). nullopt
/// for anything else.
std::optional<std::uint64_t> parseCacheSizeText(std::string_view text);

/// Size of the highest-level data or unified cache listed under `cacheDir` (index*/level, type, size);
/// nullopt when none is readable (no sysfs, a container that hides it).
std::optional<std::uint64_t>
readLastLevelCacheBytes(const std::string& cacheDir = "/sys/devices/system/cpu/cpu0/cache");

} // namespace napkin
