// SPDX-License-Identifier: GPL-3.0-or-later
// Properties of the config.json reader (engine/models/hf_config.h): it never crashes, hangs or
// throws on any text; a refusal is one line that names the source; an accepted config is a transformer
// whose every number is finite, and one the accounting takes gets finite answers.
#include "engine/accounting/accounting.h"
#include "engine/models/hf_config.h"
#include "engine/hardware/gpu_catalog.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const napkin::HfConfigResult r = napkin::parseHfConfig(text, "config.json");
    if (!r.ok()) {
        if (r.error.rfind("config.json: ", 0) != 0 || r.error.find('\n') != std::string::npos)
            std::abort();
        return 0;
    }
    const napkin::ModelSpec& m = r.config->model;
    if (m.kind != napkin::ModelKind::transformer)
        std::abort();
    for (const double v : {m.dModel, m.layers, m.heads, m.vocab, m.seq, m.ffnMult, m.kvHeads, m.ffnDim})
        if (!std::isfinite(v))
            std::abort();
    napkin::AccountingInput in;
    in.model = m;
    if (!napkin::validate(in).ok())
        return 0;
    const napkin::AccountingResult a = napkin::account(in, *napkin::GpuCatalog::builtIn().find(in.gpu));
    if (!std::isfinite(a.memory.total.value) || !std::isfinite(a.flopsPerToken.value) ||
        !std::isfinite(a.peakMemory.value))
        std::abort();
    return 0;
}
