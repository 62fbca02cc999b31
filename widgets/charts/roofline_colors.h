// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: the Roofline chart's colours, which its drawing (roofline_chart.cpp) and its
// label placement (roofline_chart_labels.cpp) share.
#include <QColor>

inline const QColor kRoofColor{0x33, 0x33, 0x33};
inline const QColor kMeasuredColor{0x4c, 0x72, 0xb0};
inline const QColor kAboveColor{0xd6, 0x27, 0x28};
inline const QColor kOtherColor{0xa0, 0xa0, 0xa0};
inline const QColor kAnalyticColor{0xdd, 0x84, 0x52};
