// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One generator per topic: each draws its numbers from the dice and asks the engine for the answer. The
// helpers build the question's parameters and texts the same way for every topic.
#include "engine/drills/drill_question.h"
#include "engine/drills/drill_random.h"

#include <string>
#include <vector>

namespace napkin {

DrillQuestion tensorBytesDrill(DrillRandom& dice);
DrillQuestion dtypeDrill(DrillRandom& dice);
DrillQuestion stridesDrill(DrillRandom& dice);
DrillQuestion viewsDrill(DrillRandom& dice);
DrillQuestion matmulFlopsDrill(DrillRandom& dice);
DrillQuestion linearStackFlopsDrill(DrillRandom& dice);
DrillQuestion trainingTimeDrill(DrillRandom& dice);
DrillQuestion bytesPerParameterDrill(DrillRandom& dice);
DrillQuestion largestModelDrill(DrillRandom& dice);
DrillQuestion activationsDrill(DrillRandom& dice);
DrillQuestion kvCacheDrill(DrillRandom& dice);

namespace drill_detail {

DrillParameter numberParameter(std::string name, double value);
DrillParameter textParameter(std::string name, std::string value);
DrillParameter listParameter(std::string name, const std::vector<double>& values);
/// "(2, 3, 4)": a shape or an index as Python writes a tuple.
std::string tupleText(const std::vector<std::int64_t>& values);

} // namespace drill_detail
} // namespace napkin
