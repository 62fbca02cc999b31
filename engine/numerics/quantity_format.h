// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one place numbers become text: formula strings and human-readable units.
#include <string>

namespace napkin {

/// Formula style: whole numbers below 1e6 exactly ("496"), large or tiny ones with three significant
/// digits in e-notation ("6.30e24"), the rest with up to four significant digits ("143.9").
std::string formatNumber(double value);

/// Whole numbers below 2^53 with every digit ("124439808"); anything else as formatNumber.
std::string formatExact(double value);

/// The shortest decimal text that reads back as exactly this double ("0.1", "1e-08", "0.0999755859375";
/// "inf", "-inf", "nan").
std::string formatShortest(double value);

enum class ByteUnits { decimal, binary }; ///< GB = 1e9 bytes, GiB = 2^30 bytes

/// "128 B", "2304 MiB", "80 GB": the largest unit that keeps the value ≥ 1, up to 4 significant digits.
std::string formatBytes(double bytes, ByteUnits units = ByteUnits::decimal);
/// "6.30e24 FLOPs" style with SI prefixes: "989.4 TFLOP/s" when perSecond.
std::string formatFlops(double flops, bool perSecond = false);
/// Seconds as "1.24e7 s (143.9 days)", or "12.5 ms" for short ones.
std::string formatDuration(double seconds);

} // namespace napkin
