// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A table of knobs (engine/accounting/number_knob.h) in a scenario file: each knob under its key, a
// number, or null for an unset optional one; read back range-checked with the table's own words. Internal
// to the scenario loader and writer.
#include "engine/accounting/number_knob.h"
#include "engine/scenario/scenario_section.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace napkin::scenario_detail {

/// One knob under its key, when the section has it: a finite number in the knob's range (refused in its
/// words), or null for an optional one (unset).
template <class Input> void readNumberKnob(const Section& s, const NumberKnob<Input>& f, Input& in) {
    const std::string key(f.key);
    const nlohmann::json* v = s.find(key.c_str());
    if (!v)
        return;
    if (f.isOptional() && v->is_null()) {
        f.set(in, std::nullopt);
        return;
    }
    double x = f.get(in).value_or(f.range.high);
    constexpr double kAny = std::numeric_limits<double>::max();
    s.number(key.c_str(), x, -kAny, kAny); // a finite number, then the table's range and words
    if (!f.range.contains(x))
        s.refuse(key.c_str(), f.range.requirement());
    f.set(in, x);
}

/// `otherKeys`: the section's keys that are not the table's (read by the caller), so that they are not
/// warned about as unknown.
template <class Input>
void readNumberKnobs(const Section& s, std::span<const NumberKnob<Input>> fields, Input& in,
                     std::initializer_list<std::string_view> otherKeys = {}) {
    std::vector<std::string_view> keys(otherKeys);
    for (const NumberKnob<Input>& f : fields)
        keys.push_back(f.key);
    s.expectKeys(keys);
    for (const NumberKnob<Input>& f : fields)
        readNumberKnob(s, f, in);
}

template <class Input>
nlohmann::json writeNumberKnobs(std::span<const NumberKnob<Input>> fields, const Input& in) {
    nlohmann::json object = nlohmann::json::object();
    for (const NumberKnob<Input>& f : fields) {
        const std::optional<double> v = f.get(in);
        if (f.integer) // written as the int it is (12, not 12.0)
            object[std::string(f.key)] = in.*(f.integer);
        else
            object[std::string(f.key)] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    }
    return object;
}

} // namespace napkin::scenario_detail
