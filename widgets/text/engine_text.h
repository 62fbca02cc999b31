// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine speaks UTF-8 std::string; Qt speaks QString. These turn one into the other in one place:
// an engine string, a number as the engine formats it ("1.5e+11" → "150 G" style, engine/numerics),
// and a shape or stride as PyTorch prints it ("(2, 3)", "(4,)").
#include <QString>

#include <cstdint>
#include <string_view>
#include <vector>

/// The engine's UTF-8 text as a QString.
QString toQString(std::string_view text);
/// `value` as the engine writes numbers everywhere (napkin::formatNumber), so the app and napkin-cli agree.
QString numberText(double value);
/// A size in bytes as the engine writes it (napkin::formatBytes, decimal units: "24 B", "1.05 MB").
QString bytesText(double bytes);
/// A shape or stride as PyTorch prints a tuple: "(2, 3)", a one-element tuple "(4,)", the empty "()".
QString tupleText(const std::vector<int64_t>& values);
