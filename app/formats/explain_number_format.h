// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "How is this computed?" for the Number formats page: how the stored bits decode to the value on
// screen, value = (−1)^s · 2^(e − bias) · 1.m, with the fields of the current value substituted.
#include "engine/numerics/float_format.h"
#include "engine/numerics/float_rounding.h"

#include <QString>

/// One format, plain text: "(−1)^0 · 2^(30 − 15) · (1 + 1023/1024) = 65504", or why it became 0, inf or NaN.
QString explainFloat(const napkin::FloatRounding& rounding);
/// HTML: the general layout and bias rule, then explainFloat for `value` in every format.
QString explainNumberFormats(double value, napkin::OverflowMode mode);
