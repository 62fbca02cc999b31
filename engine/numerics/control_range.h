// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A closed interval of values a control accepts (engine/scenario/control_ranges.h holds every page's).

namespace napkin {

struct ControlRange {
    double minimum = 0;
    double maximum = 0;
    constexpr bool contains(double value) const { return value >= minimum && value <= maximum; }
};

} // namespace napkin
