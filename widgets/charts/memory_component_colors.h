// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: the colour of each memory component, shared by the memory bar and the
// memory timeline so that a component looks the same in both.
#include <QColor>

#include <array>

/// parameters, gradients, master weights, optimizer state, activations, temporaries
inline const std::array<QColor, 6> kMemoryComponentColors{QColor(0x4c, 0x72, 0xb0), QColor(0xdd, 0x84, 0x52),
                                                          QColor(0x55, 0xa8, 0x68), QColor(0x81, 0x72, 0xb3),
                                                          QColor(0xcc, 0xb9, 0x74), QColor(0x93, 0x93, 0x93)};
