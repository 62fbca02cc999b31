// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hardware/cpu_cache.h"

#include <cctype>
#include <charconv>
#include <fstream>

namespace napkin {
namespace {

std::string firstLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

} // namespace

std::optional<std::uint64_t> parseCacheSizeText(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data())
        return std::nullopt;
    const std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
    if (suffix.empty())
        return value;
    if (suffix.size() != 1)
        return std::nullopt;
    switch (suffix.front()) {
    case 'K':
        return value << 10;
    case 'M':
        return value << 20;
    case 'G':
        return value << 30;
    default:
        return std::nullopt;
    }
}

std::optional<std::uint64_t> readLastLevelCacheBytes(const std::string& cacheDir) {
    std::optional<std::uint64_t> best;
    int bestLevel = 0;
    // index0..index15 covers every CPU Linux describes (L1d, L1i, L2, L3, sometimes L4).
    for (int i = 0; i < 16; ++i) {
        const std::string dir = cacheDir + "/index" + std::to_string(i);
        const std::string type = firstLine(dir + "/type");
        if (type.empty())
            continue;
        if (type == "Instruction")
            continue;
        int level = 0;
        const std::string levelText = firstLine(dir + "/level");
        std::from_chars(levelText.data(), levelText.data() + levelText.size(), level);
        const std::optional<std::uint64_t> bytes = parseCacheSizeText(firstLine(dir + "/size"));
        if (bytes && *bytes > 0 && level >= bestLevel) {
            bestLevel = level;
            best = bytes;
        }
    }
    return best;
}

} // namespace napkin
