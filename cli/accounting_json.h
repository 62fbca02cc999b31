#pragma once
// The JSON document `napkin-cli account --json` prints (field names are a public contract), and the
// human-readable report it prints without --json.
#include "engine/accounting/accounting.h"

#include <nlohmann/json.hpp>

#include <string>

namespace napkin::cli {

/// A number as JSON: whole values below 2^53 as integers (124439808, not 124439808.0).
nlohmann::json jsonNumber(double value);

nlohmann::json accountingToJson(const AccountingInput& input, const GpuSpec& gpu, const AccountingResult& result);
std::string accountingToText(const AccountingInput& input, const GpuSpec& gpu, const AccountingResult& result);

} // namespace napkin::cli
