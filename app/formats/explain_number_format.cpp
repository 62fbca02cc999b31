// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/formats/explain_number_format.h"

#include <QCoreApplication>

#include <charconv>
#include <cmath>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainNumberFormat", text);
}

// The shortest decimal that reads back as this double, so "65504" and "0.1" stay exact.
QString exact(double value) {
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+inf") : QStringLiteral("−inf");
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, int(result.ptr - buffer));
}

QString name(FloatFormat format) {
    const std::string_view n = floatFormatName(format);
    return QString::fromLatin1(n.data(), int(n.size()));
}

} // namespace

QString explainFloat(const FloatRounding& r) {
    const FloatLayout& layout = floatLayout(r.format);
    const FloatFacts facts = floatFacts(r.format);
    const auto s = static_cast<qulonglong>(r.fields.sign);
    const auto e = static_cast<qlonglong>(r.fields.exponent);
    const auto m = static_cast<qulonglong>(r.fields.mantissa);
    const qulonglong scale = qulonglong{1} << layout.mantissaBits;
    const QString scaleText =
        layout.mantissaBits > 12 ? QStringLiteral("2^%1").arg(layout.mantissaBits) : QString::number(scale);
    const QString fields = tr("s = %1, e = %2, m = %3").arg(s).arg(e).arg(m);
    switch (r.cls) {
    case FloatClass::normal:
        return tr("%1: %2 → (−1)^%3 · 2^(%4 − %5) · (1 + %6/%7) = %8")
            .arg(name(r.format), fields)
            .arg(s)
            .arg(e)
            .arg(layout.bias)
            .arg(m)
            .arg(scaleText, exact(r.value));
    case FloatClass::subnormal:
        return tr("%1: %2 → subnormal (e = 0, no implicit 1): (−1)^%3 · 2^(1 − %4) · (%5/%6) = %7")
            .arg(name(r.format), fields)
            .arg(s)
            .arg(layout.bias)
            .arg(m)
            .arg(scaleText, exact(r.value));
    case FloatClass::zero:
        if (r.input != 0.0 && std::isfinite(r.input))
            return tr("%1: %2 → 0. Underflow: |%3| is below half the smallest subnormal 2^(1 − %4 − %5) = "
                      "%6, "
                      "so it rounds to zero.")
                .arg(name(r.format), fields, exact(r.input))
                .arg(layout.bias)
                .arg(layout.mantissaBits)
                .arg(exact(facts.minSubnormal));
        return tr("%1: %2 → all exponent and mantissa bits 0 encode %3.")
            .arg(name(r.format), fields, exact(r.value));
    case FloatClass::infinity:
        return tr("%1: %2 → exponent all ones, mantissa 0: %3. Overflow: the largest finite value is %4.")
            .arg(name(r.format), fields, exact(r.value), exact(facts.max));
    case FloatClass::nan:
        if (std::isfinite(r.input))
            return tr("%1: %2 → NaN. This format has no infinity; %3 is beyond its largest finite value %4.")
                .arg(name(r.format), fields, exact(r.input), exact(facts.max));
        return tr("%1: %2 → NaN.").arg(name(r.format), fields);
    }
    return {};
}

QString explainNumberFormats(double value, OverflowMode mode) {
    QString text =
        tr("<h3>From bits to value</h3><p>A float is 1 sign bit s, E exponent bits e and M mantissa "
           "bits m. A normal number is <b>value = (−1)<sup>s</sup> · 2<sup>e − bias</sup> · 1.m</b>, "
           "where 1.m = 1 + m/2<sup>M</sup> and bias = 2<sup>E−1</sup> − 1. With e = 0 the number is "
           "subnormal: (−1)<sup>s</sup> · 2<sup>1 − bias</sup> · 0.m. Rounding is to nearest, ties to "
           "even.</p><p>%1 stored in each format:</p><ul>")
            .arg(exact(value).toHtmlEscaped());
    for (FloatFormat format : kFloatFormats) {
        const FloatLayout& layout = floatLayout(format);
        text += QStringLiteral("<li>%1 <small>(E = %2, M = %3, bias %4)</small></li>")
                    .arg(explainFloat(roundToFormat(format, value, mode)).toHtmlEscaped())
                    .arg(layout.exponentBits)
                    .arg(layout.mantissaBits)
                    .arg(layout.bias);
    }
    return text + QStringLiteral("</ul>");
}
