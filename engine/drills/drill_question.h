// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A napkin-math drill: one question with fresh numbers, the answer the engine computes for them, how
// close a guess must come, the formula, and the page of the app that shows it. Plain values, so the CLI's
// JSON, the GUI's panel and the tests read the same struct.
#include "engine/scenario/scenario.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// The lecture's napkin-math topics, in the order a mixed drill cycles through them.
enum class DrillTopic {
    tensorBytes,       ///< bytes of a tensor of a shape and dtype
    dtype,             ///< a float format's max, eps, smallest subnormal, or what a value rounds to
    strides,           ///< storage offset of an element from shape, strides and storage offset
    views,             ///< does an operation chain make a view (free) or copy?
    matmulFlops,       ///< 2·m·n·k
    linearStackFlops,  ///< forward, backward or both of the lecture's deep linear net
    trainingTime,      ///< 6·N·T / (GPUs · peak · MFU)
    bytesPerParameter, ///< model-state bytes per parameter for an optimizer and precision recipe
    largestModel,      ///< largest N whose model states fit one GPU
    activations,       ///< activation bytes one transformer layer keeps for backward
    kvCache            ///< KV-cache bytes per token
};

std::string_view drillTopicName(DrillTopic topic);
std::optional<DrillTopic> drillTopicFromName(std::string_view name);
std::span<const DrillTopic> allDrillTopics();

/// What an answer measures, which decides the units a guess may carry.
enum class DrillUnit {
    number,     ///< a plain value (a float format's max, a rounded value)
    elements,   ///< a count of elements (a storage offset)
    bytes,      ///< "2.5 GB", "2.33 GiB", "2.5e9"
    flops,      ///< "6.3e24", "2 TFLOPs"
    days,       ///< "144 days", "3.5 weeks", "2e6 s"
    parameters, ///< "40B", "40e9", "40 billion"
    choice      ///< one of `choices` ("view", "copy")
};

std::string_view drillUnitName(DrillUnit unit);

/// One input of the question, named as the JSON names it, so that a checker can recompute the answer.
struct DrillParameter {
    std::string name;
    std::optional<double> number; ///< a numeric parameter
    std::string text;             ///< a textual one (a dtype, an expression) when number is unset
    std::vector<double> list;     ///< a list (a shape, strides, an index) when `isList`
    bool isList = false;
};

struct DrillQuestion {
    DrillTopic topic = DrillTopic::tensorBytes;
    std::string kind; ///< what within the topic is asked: "max", "forward", "bytes", ...
    std::string text; ///< the question as asked
    DrillUnit unit = DrillUnit::number;
    double answer = 0;      ///< in the unit's base (bytes, FLOPs, days, parameters, elements); choice: index
    std::string answerText; ///< the answer as the app would show it ("2.5e9 B (2.33 GiB)")
    std::vector<std::string> choices; ///< DrillUnit::choice only
    /// A guess g is right when |g − answer| ≤ tolerance · |answer|; 0: exactly.
    double relativeTolerance = 0;
    std::string formula; ///< the derivation with the numbers in, one line per step ('\n')
    ScenarioPage page = ScenarioPage::accounting; ///< where the app shows this
    /// The page set up for this question, as a tour step's edit (tour_file.h): a JSON merge patch over the
    /// scenario file, "{}" where the page has no control for these inputs.
    std::string setupJson = "{}";
    std::vector<DrillParameter> parameters;
};

} // namespace napkin
