// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli dtype`: how values are stored in fp32, fp16, bf16, fp8 E4M3 and fp8 E5M2.
#include "cli/command.h"

#include <optional>
#include <string>

namespace napkin::cli {

Command addDtypeCommand(CLI::App& parent);

/// A VALUE argument: napkin's number syntax ("1e-8", "65504", "1.5k") plus "inf", "-inf", "+inf",
/// "nan"; nullopt with `error` set otherwise.
std::optional<double> parseDtypeValue(const std::string& text, std::string& error);

} // namespace napkin::cli
