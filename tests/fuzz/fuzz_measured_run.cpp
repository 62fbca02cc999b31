// SPDX-License-Identifier: GPL-3.0-or-later
// Properties of the measured-run readers (engine/measured/): a CUDA memory snapshot's pickle (first byte
// 0x80) and torch.profiler's Chrome trace (anything else). Neither ever crashes, hangs, throws or runs
// what a pickle names; a refusal is one line that names the source; an accepted run has a timeline per
// device whose every figure is finite and whose peak is its largest sample.
#include "engine/measured/chrome_trace_reader.h"
#include "engine/measured/memory_snapshot_reader.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    napkin::PickleLimits limits;
    limits.maxValues = 20'000; // small enough that a memo bomb's walk ends at once
    const napkin::MeasuredRunRead r = size > 0 && data[0] == 0x80
                                          ? napkin::readMemorySnapshot(bytes, "run", limits)
                                          : napkin::readChromeTrace(bytes, "run");
    if (!r.ok()) {
        if (r.error.rfind("run: ", 0) != 0 || r.error.find('\n') != std::string::npos)
            std::abort();
        return 0;
    }
    if (r.run.devices.empty())
        std::abort();
    for (const napkin::MeasuredTimeline& t : r.run.devices) {
        if (t.samples.empty() || t.peakIndex >= t.samples.size() ||
            t.samples[t.peakIndex].allocatedBytes != t.peakAllocatedBytes)
            std::abort();
        for (const napkin::MeasuredSample& s : t.samples) {
            if (!std::isfinite(s.allocatedBytes) || !std::isfinite(s.timeUs) ||
                !std::isfinite(s.reservedBytes) || s.allocatedBytes > t.peakAllocatedBytes)
                std::abort();
            if (s.phase >= 0 && static_cast<std::size_t>(s.phase) >= t.phases.size())
                std::abort();
        }
    }
    return 0;
}
