// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/measured/measured_overheads.h"

namespace napkin {

std::vector<MeasuredOverhead> measuredOverheadsOf(const MemoryOverheads& overheads,
                                                  const MeasuredDevice& device) {
    std::vector<MeasuredOverhead> out;
    if (device.type != MeasuredDeviceType::cuda)
        return out;
    for (const OverheadLine& line : overheads.lines) {
        if (!line.counted || line.bytes <= 0)
            continue;
        OverheadScope scope = OverheadScope::allocated;
        if (line.kind == OverheadKind::fragmentation)
            scope = OverheadScope::reserved;
        else if (line.kind == OverheadKind::cudaContext || line.kind == OverheadKind::ncclBuffers)
            scope = OverheadScope::device;
        out.push_back({line.label, line.bytes, scope, line.formula});
    }
    return out;
}

} // namespace napkin
