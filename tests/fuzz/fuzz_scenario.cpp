// SPDX-License-Identifier: GPL-3.0-or-later
// Properties of the scenario loader: never crashes or throws; a refusal always says why; an accepted
// file writes back to text that loads to the same scenario (so save → open never changes a control).
#include "engine/scenario/scenario.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

// NaN never equals itself; the loader may produce it from "nan" in formats.value.
bool sameScenario(napkin::Scenario a, napkin::Scenario b) {
    if (std::isnan(a.formats.value) != std::isnan(b.formats.value))
        return false;
    if (std::isnan(a.formats.value))
        a.formats.value = b.formats.value = 0;
    return a == b;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const napkin::ScenarioParse parsed = napkin::parseScenario(text);
    if (!parsed.ok()) {
        if (parsed.error.empty())
            std::abort();
        return 0;
    }
    if (parsed.fileVersion < 1 || parsed.fileVersion > napkin::kScenarioFormatVersion)
        std::abort();
    const napkin::ScenarioParse again = napkin::parseScenario(napkin::writeScenario(*parsed.scenario));
    if (!again.ok() || again.fileVersion != napkin::kScenarioFormatVersion || !again.warnings.empty())
        std::abort();
    if (!sameScenario(*again.scenario, *parsed.scenario))
        std::abort();
    return 0;
}
