// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A spin box given a range from the engine's table of control ranges (engine/scenario/control_ranges.h).
#include "engine/numerics/control_range.h"

#include <QDoubleSpinBox>
#include <QSpinBox>

inline void setRangeOf(QSpinBox* box, napkin::ControlRange range) {
    box->setRange(static_cast<int>(range.minimum), static_cast<int>(range.maximum));
}

inline void setRangeOf(QDoubleSpinBox* box, napkin::ControlRange range) {
    box->setRange(range.minimum, range.maximum);
}
