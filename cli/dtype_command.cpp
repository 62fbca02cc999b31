// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/dtype_command.h"

#include "cli/number_option.h"
#include "engine/numerics/float_rounding.h"
#include "engine/numerics/number_parse.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/dtype_report.h"
#include "engine/report/json_values.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iomanip>
#include <limits>
#include <memory>
#include <ostream>
#include <sstream>
#include <vector>

namespace napkin::cli {
namespace {

struct DtypeOptions {
    std::vector<std::string> values;
    bool info = false;
    bool saturate = false;
    bool json = false;
};

std::string valueText(double value) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    std::ostringstream text;
    text << std::setprecision(17) << value; // exact enough to read back; formatNumber would round
    return text.str();
}

void printText(const DtypeOptions& o, const std::vector<double>& values, std::ostream& out) {
    if (o.info) {
        out << "format     e  m  bias  max            min normal     min subnormal  eps\n";
        for (FloatFormat format : kFloatFormats) {
            const FloatFacts f = floatFacts(format);
            out << std::left << std::setw(10) << floatFormatName(format) << ' ' << std::setw(2)
                << f.exponentBits << ' ' << std::setw(2) << f.mantissaBits << ' ' << std::setw(5) << f.bias
                << ' ' << std::setw(14) << valueText(f.max) << ' ' << std::setw(14) << valueText(f.minNormal)
                << ' ' << std::setw(14) << valueText(f.minSubnormal) << ' ' << valueText(f.eps) << '\n';
        }
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        out << o.values[i] << ":\n";
        for (FloatFormat format : kFloatFormats) {
            const FloatRounding r = roundToFormat(
                format, values[i], o.saturate ? OverflowMode::saturate : OverflowMode::standard);
            out << "  " << std::left << std::setw(9) << floatFormatName(format) << ' ' << std::setw(11)
                << floatBitsHex(format, r.bits) << ' ' << std::setw(24) << valueText(r.value) << ' '
                << std::setw(9) << floatClassName(r.cls);
            if (r.relError)
                out << " rel. error " << formatNumber(*r.relError);
            out << '\n';
        }
    }
}

int execute(const DtypeOptions& o, std::ostream& out) {
    if (o.values.empty() && !o.info)
        throw UsageError("VALUE: give at least one value to store (e.g. 1e-8), or --info");
    std::vector<double> values;
    for (const std::string& text : o.values) {
        std::string error;
        const std::optional<double> value = parseDtypeValue(text, error);
        if (!value)
            throw UsageError(std::string("VALUE '").append(text).append("': ").append(error));
        values.push_back(*value);
    }
    if (!o.json) {
        printText(o, values, out);
        return 0;
    }
    out << jsonText(dtypeDocumentJson(o.values, values, o.info,
                                      o.saturate ? OverflowMode::saturate : OverflowMode::standard));
    return 0;
}

} // namespace

std::optional<double> parseDtypeValue(const std::string& text, std::string& error) {
    const ParsedNumber parsed = parseFloatValue(text);
    if (!parsed.ok()) {
        error = "cannot read it as a number: " + parsed.error + " (at character " +
                std::to_string(parsed.errorAt + 1) + ")";
        return std::nullopt;
    }
    return parsed.value;
}

Command addDtypeCommand(CLI::App& parent) {
    auto options = std::make_shared<DtypeOptions>();
    CLI::App* sub =
        parent.add_subcommand("dtype", "How values are stored in fp32, fp16, bf16, fp8 E4M3 and E5M2");
    DtypeOptions& o = *options;
    // VALUEs are collected as "extras" rather than a positional option so that "-inf" (which CLI11
    // would take for a short option) stays a value, in the order given.
    sub->allow_extras();
    sub->footer("VALUE ...: values to store, in order (1e-8, 65504, -1.5, 1.5k, inf, -inf, nan)\n");
    sub->add_flag("--info", o.info, "the formats' facts (bits, bias, max, min normal, min subnormal, eps)");
    sub->add_flag("--saturate", o.saturate,
                  "fp8 overflow clamps to ±max instead of giving NaN (E4M3) or inf (E5M2)");
    sub->add_flag("--json", o.json, "print one JSON document");
    return {sub, [options, sub](std::ostream& out, std::ostream&) {
                options->values = sub->remaining();
                return execute(*options, out);
            }};
}

} // namespace napkin::cli
