// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/dtype_report.h"

#include "engine/report/json_values.h"

#include <cmath>

namespace napkin {

using nlohmann::json;

json floatValueJson(double value) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == 0.0 && std::signbit(value))
        return -0.0; // keep the sign of zero visible: fp16(-1e-8) is -0
    return jsonNumber(value);
}

namespace {
json optionalValueJson(const std::optional<double>& value) {
    return value ? floatValueJson(*value) : json(nullptr);
}
} // namespace

json floatRoundingToJson(const FloatRounding& r) {
    json doc;
    doc["name"] = std::string(floatFormatName(r.format));
    doc["bits"] = floatBitsHex(r.format, r.bits);
    doc["value"] = floatValueJson(r.value);
    doc["class"] = std::string(floatClassName(r.cls));
    doc["binary"] = floatBitsBinary(r.format, r.bits);
    doc["sign"] = r.fields.sign;
    doc["exponent"] = r.fields.exponent;
    doc["mantissa"] = r.fields.mantissa;
    doc["abs_error"] = optionalValueJson(r.absError);
    doc["rel_error"] = optionalValueJson(r.relError);
    doc["previous"] = optionalValueJson(r.previous);
    doc["next"] = optionalValueJson(r.next);
    doc["ulp"] = std::isfinite(r.ulp) ? floatValueJson(r.ulp) : json(nullptr);
    return doc;
}

json floatFactsToJson(FloatFormat format) {
    const FloatFacts f = floatFacts(format);
    return {{"name", std::string(floatFormatName(format))},
            {"exponent_bits", f.exponentBits},
            {"mantissa_bits", f.mantissaBits},
            {"bias", f.bias},
            {"total_bits", f.totalBits},
            {"bytes_per_element", jsonNumber(f.bytesPerElement)},
            {"max", jsonNumber(f.max)},
            {"min_normal", jsonNumber(f.minNormal)},
            {"min_subnormal", jsonNumber(f.minSubnormal)},
            {"eps", jsonNumber(f.eps)},
            {"finite_values", jsonNumber(f.finiteValues)},
            {"finite_bit_patterns", jsonNumber(f.finiteBitPatterns)},
            {"has_inf", f.hasInfinity}};
}

json dtypeValueToJson(const std::string& input, double value, OverflowMode overflow) {
    json formats = json::array();
    for (FloatFormat format : kFloatFormats)
        formats.push_back(floatRoundingToJson(roundToFormat(format, value, overflow)));
    return {{"input", input}, {"formats", formats}};
}

json dtypeDocumentJson(const std::vector<std::string>& inputs, const std::vector<double>& values, bool info,
                       OverflowMode overflow) {
    json doc = json::object();
    if (info) {
        json formats = json::array();
        for (FloatFormat format : kFloatFormats)
            formats.push_back(floatFactsToJson(format));
        doc["formats"] = formats;
    }
    if (!inputs.empty() || !info) {
        json entries = json::array();
        for (std::size_t i = 0; i < values.size(); ++i)
            entries.push_back(dtypeValueToJson(inputs[i], values[i], overflow));
        doc["values"] = entries;
    }
    return doc;
}

} // namespace napkin
