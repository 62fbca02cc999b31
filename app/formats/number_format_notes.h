// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One short, precise sentence per float format on where it is used in training.
#include "engine/numerics/float_format.h"

#include <QString>

QString numberFormatNote(napkin::FloatFormat format);
