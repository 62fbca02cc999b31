// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/drills/drill_question.h"

#include "engine/text/name_table.h"

namespace napkin {
namespace {

constexpr NameTable<DrillTopic, 11> kTopicNames{{{DrillTopic::tensorBytes, "tensor-bytes"},
                                                 {DrillTopic::dtype, "dtype"},
                                                 {DrillTopic::strides, "strides"},
                                                 {DrillTopic::views, "views"},
                                                 {DrillTopic::matmulFlops, "matmul-flops"},
                                                 {DrillTopic::linearStackFlops, "linear-stack-flops"},
                                                 {DrillTopic::trainingTime, "training-time"},
                                                 {DrillTopic::bytesPerParameter, "bytes-per-parameter"},
                                                 {DrillTopic::largestModel, "largest-model"},
                                                 {DrillTopic::activations, "activations"},
                                                 {DrillTopic::kvCache, "kv-cache"}}};
constexpr auto kTopics = valuesIn(kTopicNames);

constexpr NameTable<DrillUnit, 7> kUnitNames{{{DrillUnit::number, "number"},
                                              {DrillUnit::elements, "elements"},
                                              {DrillUnit::bytes, "bytes"},
                                              {DrillUnit::flops, "flops"},
                                              {DrillUnit::days, "days"},
                                              {DrillUnit::parameters, "parameters"},
                                              {DrillUnit::choice, "choice"}}};

} // namespace

std::string_view drillTopicName(DrillTopic topic) {
    return nameIn(kTopicNames, topic);
}

std::optional<DrillTopic> drillTopicFromName(std::string_view name) {
    return valueIn(kTopicNames, name);
}

std::span<const DrillTopic> allDrillTopics() {
    return kTopics;
}

std::string_view drillUnitName(DrillUnit unit) {
    return nameIn(kUnitNames, unit);
}

} // namespace napkin
