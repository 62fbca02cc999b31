// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A data-only reader of Python's pickle format (protocols 2 to 5), for the files PyTorch writes with
// pickle.dump of plain data (the CUDA memory snapshot of torch.cuda.memory._dump_snapshot()). It builds
// dicts, lists, tuples, str, bytes, int, float, bool and None, with the memo; any opcode that would name,
// call or build a Python object (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, PERSID, EXT, ...)
// is refused with one line, never executed. Bounded: the nesting depth, the number of values and the
// stack are capped, so a hostile file costs at most its limits.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct PickleLimits {
    std::size_t maxValues = 8'000'000; ///< values built (a memo reference builds none)
    int maxDepth = 32;                 ///< containers inside containers
    std::size_t maxStringBytes = 256;  ///< a longer str or bytes keeps its length, not its text
};

/// One value; containers hold indices into PickleData::values.
struct PickleValue {
    enum class Kind : std::uint8_t { none, boolean, integer, real, text, bytes, list, tuple, dict };
    Kind kind = Kind::none;
    bool truncated = false;           ///< text/bytes longer than maxStringBytes: `text` is empty
    int depth = 0;                    ///< 0 for a scalar; 1 + the deepest item when it was added
    std::int64_t integer = 0;         ///< integer (a Python int beyond 64 bits is refused), boolean
    double real = 0;                  ///< real
    std::string text;                 ///< text, bytes
    std::vector<std::uint32_t> items; ///< list, tuple: the items; dict: key, value, key, value, ...
};

struct PickleData {
    std::vector<PickleValue> values;
    std::uint32_t root = 0;
    std::string error; ///< one line: "refused opcode GLOBAL at byte 12: a pickle that names code"
    bool ok() const { return error.empty(); }

    const PickleValue& at(std::uint32_t index) const { return values[index]; }
    /// The value under key `key` (a str) in dict `dict`; nullopt when `dict` is no dict or lacks it.
    std::optional<std::uint32_t> find(std::uint32_t dict, std::string_view key) const;
};

/// Reads `bytes` as one pickle (PROTO 2–5 first, then data, then STOP). Never throws.
PickleData readPickleData(std::string_view bytes, const PickleLimits& limits = {});

} // namespace napkin
