// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "How is this computed?" for the Training page: the formulas behind the lesson in front (activation std
// per layer, seeds and checksums, get_batch's offsets, rounding and loss scaling), in the lecture's terms.
#include "engine/scenario/scenario.h"

#include <QString>

/// HTML for the lesson tab `lesson`.
QString explainTraining(napkin::TrainingLesson lesson);
