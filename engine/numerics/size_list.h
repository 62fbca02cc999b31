// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one reader of size lists as people type them: "512,1024,2048" (matmul sizes), "4K,1M,1G" (copy
// sizes in bytes), "12288*4, 12288" (a tensor shape). Each caller gives its rules; the reading, the
// limits and the messages are the same everywhere.
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

enum class SizeUnit {
    count, ///< napkin's number syntax (parseNumber: "4096", "1.5k", "4Ki"), which must be a whole number
    bytes  ///< whole bytes with an optional binary suffix: B, K/KiB, M/MiB, G/GiB (1K = 1024), any case
};

struct SizeListRules {
    SizeUnit unit = SizeUnit::count;
    double minimum = 1;                            ///< smallest size allowed
    double maximum = 65536;                        ///< largest size allowed
    std::vector<std::string_view> separators{","}; ///< any of these (UTF-8 text, "×" too) separates two items
    bool products = false;                         ///< an item may be a product of factors, "12288*4"
    bool skipEmpty = false; ///< empty items ("4,,8", a trailing comma) are skipped, not refused
};

struct SizeList {
    std::vector<double> sizes; ///< in the order typed; whole numbers
    std::string error;         ///< "'zero' ..." naming the item at fault; empty when the list was read
    bool ok() const { return error.empty(); }
};

/// Reads `text` item by item (spaces around an item are ignored). The first bad item stops the reading
/// with a message that names it: not a number, not whole, below the minimum, above the maximum, or (bytes)
/// an unknown unit. An empty list is refused unless skipEmpty allows it.
SizeList parseSizeList(std::string_view text, const SizeListRules& rules);

} // namespace napkin
