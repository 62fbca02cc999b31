// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether the results being computed on this thread need their formulas. Every answer carries the formula
// that produced it ("4 × 124439808 = 497759232 B"), which costs far more than the number: a search that
// only needs a peak (the largest batch or sequence that fits, the fit advice's candidates) computes
// inside a ValuesOnly scope, where formatNumber() spells nothing and the accounting skips its texts and
// ledgers. The numbers are those of the same code path, bit for bit.

namespace napkin {

namespace detail {
inline bool& valuesOnlyFlag() {
    thread_local bool valuesOnly = false;
    return valuesOnly;
}
} // namespace detail

/// False inside a ValuesOnly scope on this thread: texts built there are not read.
inline bool formulasWanted() {
    return !detail::valuesOnlyFlag();
}

/// While alive, results computed on this thread carry numbers only (their texts are empty or partial).
class ValuesOnly {
public:
    ValuesOnly()
        : previous_(detail::valuesOnlyFlag()) {
        detail::valuesOnlyFlag() = true;
    }
    ~ValuesOnly() { detail::valuesOnlyFlag() = previous_; }
    ValuesOnly(const ValuesOnly&) = delete;
    ValuesOnly& operator=(const ValuesOnly&) = delete;
    ValuesOnly(ValuesOnly&&) = delete;
    ValuesOnly& operator=(ValuesOnly&&) = delete;

private:
    bool previous_;
};

} // namespace napkin
