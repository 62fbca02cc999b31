// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/drills/drill_generators.h"

#include <utility>

namespace napkin::drill_detail {

DrillParameter numberParameter(std::string name, double value) {
    DrillParameter p;
    p.name = std::move(name);
    p.number = value;
    return p;
}

DrillParameter textParameter(std::string name, std::string value) {
    DrillParameter p;
    p.name = std::move(name);
    p.text = std::move(value);
    return p;
}

DrillParameter listParameter(std::string name, const std::vector<double>& values) {
    DrillParameter p;
    p.name = std::move(name);
    p.list = values;
    p.isList = true;
    return p;
}

std::string tupleText(const std::vector<std::int64_t>& values) {
    std::string text = "(";
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + std::to_string(values[i]);
    if (values.size() == 1)
        text += ",";
    return text + ")";
}

} // namespace napkin::drill_detail
