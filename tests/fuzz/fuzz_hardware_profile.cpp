// SPDX-License-Identifier: GPL-3.0-or-later
// Properties of the hardware-profile reader and the step time built on it (engine/steptime/): the reader
// never crashes, hangs or throws on any text; a refusal is one line naming a field; an accepted profile
// has finite, positive rates and times GPT-2 small to a finite, positive step whose MFU is finite.
#include "engine/models/model_presets.h"
#include "engine/steptime/hardware_profile.h"
#include "engine/steptime/step_time.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const napkin::HardwareProfileRead read = napkin::hardwareProfileFromJson(text);
    if (!read.profile) {
        if (read.error.empty() || read.error.find('\n') != std::string::npos)
            std::abort();
        return 0;
    }
    const napkin::HardwareProfile& p = *read.profile;
    for (const napkin::GemmRate& g : p.gemms)
        if (!(g.flopsPerSecond > 0) || !std::isfinite(g.flopsPerSecond))
            std::abort();
    if (!(p.memoryBandwidthBytesPerSecond > 0) || !std::isfinite(p.perOpOverheadSeconds))
        std::abort();
    napkin::AccountingInput in;
    in.model = napkin::findModelPreset("gpt2-small")->model;
    in.precision = napkin::PrecisionRecipe::mixedBf16;
    const napkin::GpuSpec& gpu = *napkin::GpuCatalog::builtIn().find(in.gpu);
    const napkin::StepTime t = napkin::predictStepTime(in, napkin::account(in, gpu), p);
    if (t.predicted && (!(t.seconds > 0) || !std::isfinite(t.seconds) || !std::isfinite(t.mfu)))
        std::abort();
    if (!t.predicted && t.whyNot.empty())
        std::abort();
    return 0;
}
