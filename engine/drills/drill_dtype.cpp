// SPDX-License-Identifier: GPL-3.0-or-later
// A float format's facts (torch.finfo's max, eps, smallest subnormal) and what a value rounds to in it.
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/numerics/float_rounding.h"
#include "engine/numerics/quantity_format.h"

#include <cmath>

namespace napkin {

using namespace drill_detail;

namespace {

std::string factsLine(const FloatLayout& l) {
    return std::string(l.name) + ": " + std::to_string(l.exponentBits) + " exponent bits (bias " +
           std::to_string(l.bias) + "), " + std::to_string(l.mantissaBits) + " mantissa bits";
}

} // namespace

DrillQuestion dtypeDrill(DrillRandom& dice) {
    const FloatFormat format = dice.pick(std::span<const FloatFormat>(kFloatFormats));
    const FloatLayout& layout = floatLayout(format);
    const FloatFacts facts = floatFacts(format);
    static constexpr const char* kKinds[] = {"max", "eps", "smallest-subnormal", "round"};
    const std::string kind = dice.pick(kKinds);

    DrillQuestion q;
    q.topic = DrillTopic::dtype;
    q.kind = kind;
    q.unit = DrillUnit::number;
    q.page = ScenarioPage::formats;
    q.setupJson = nlohmann::json{{"formats", {{"value", q.answer}, {"pinned", nullptr}}}}.dump();
    q.parameters = {textParameter("format", std::string(layout.name)), textParameter("fact", kind)};
    const std::string name(layout.name);
    const int m = layout.mantissaBits, bias = layout.bias;
    q.relativeTolerance = 0.001; // three significant digits: "3.39e38", "5.96e-8"
    if (kind == "max") {
        q.text = "What is the largest finite " + name + " value?";
        q.answer = facts.max;
        q.formula = factsLine(layout) + "\n" +
                    (layout.special == SpecialEncoding::ieee
                         ? "max = (2 − 2^−" + std::to_string(m) + ") × 2^" +
                               std::to_string((1 << layout.exponentBits) - 2 - bias) +
                               " (the all-ones exponent is inf/NaN)"
                         : "max = (2 − 2^−" + std::to_string(m - 1) + ") × 2^" +
                               std::to_string((1 << layout.exponentBits) - 1 - bias) +
                               " (no inf; only the all-ones pattern is NaN)") +
                    "\n= " + formatShortest(facts.max);
    } else if (kind == "eps") {
        q.text = "What is " + name + "'s machine epsilon (the gap between 1 and the next value)?";
        q.answer = facts.eps;
        q.formula = factsLine(layout) + "\neps = 2^−" + std::to_string(m) + " = " + formatShortest(facts.eps);
    } else if (kind == "smallest-subnormal") {
        q.text = "What is the smallest positive (subnormal) " + name + " value?";
        q.answer = facts.minSubnormal;
        q.formula = factsLine(layout) + "\nsmallest subnormal = 2^(1 − " + std::to_string(bias) + " − " +
                    std::to_string(m) + ") = 2^" + std::to_string(1 - bias - m) + " = " +
                    formatShortest(facts.minSubnormal);
    } else {
        // Values that land between two representable values, or in the subnormals, of most formats;
        // none above the format's max (an overflow's inf or NaN is no number to type).
        static constexpr double kValues[] = {0.1,  0.2,   0.3,   1.0 / 3, 3.14159, 2.71828, 1e-3,
                                             1e-5, 1e-8,  6e-8,  257,     1000.5,  2049,    4097,
                                             300,  65519, 65520, 1e5,     123456,  0.0003}; // NOLINT
        double value = dice.pick(kValues);
        while (value > facts.max)
            value = value / 1000;
        const FloatRounding r = roundToFormat(format, value);
        q.text = "Stored in " + name + ", what value does " + formatShortest(value) + " become?";
        q.answer = r.value;
        q.parameters.push_back(numberParameter("value", value));
        // Right when nearer to the answer than to its neighbours: within a quarter of the spacing there.
        q.relativeTolerance = r.value == 0 ? 0 : 0.25 * r.ulp / std::abs(r.value);
        q.formula = factsLine(layout) + "\nspacing (ulp) at " + formatShortest(r.value) + ": " +
                    formatShortest(r.ulp) + "\n" + formatShortest(value) +
                    " rounds to the nearest (ties to even): " + formatShortest(r.value) + " (" +
                    std::string(floatClassName(r.cls)) + ", bits " + floatBitsHex(format, r.bits) + ")";
        q.answerText = formatShortest(r.value);
        return q;
    }
    q.answerText = formatShortest(q.answer);
    return q;
}

} // namespace napkin
