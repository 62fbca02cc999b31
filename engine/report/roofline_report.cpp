// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/roofline_report.h"

#include "engine/report/json_values.h"
#include "engine/report/memory_bandwidth_report.h"

#include <sstream>

namespace napkin {

std::string ridgeFormula(const Roofline& roof) {
    std::ostringstream s;
    s.precision(4);
    s << "ridge = peak / bandwidth = " << roof.peakFlopsPerSecond << " FLOP/s / "
      << roof.bandwidthBytesPerSecond << " B/s = " << roof.ridgeFlopsPerByte() << " FLOP/B";
    return s.str();
}

nlohmann::json rooflineJson(const Roofline& roof, const MemoryBandwidthResult* measuredBandwidth) {
    nlohmann::json j = {{"device", roof.device},
                        {"dtype", roof.dtype},
                        {"peak_flops_per_second", jsonNumber(roof.peakFlopsPerSecond)},
                        {"peak_source", roof.peakSource},
                        {"bandwidth_bytes_per_second", jsonNumber(roof.bandwidthBytesPerSecond)},
                        {"bandwidth_source", roof.bandwidthSource},
                        {"ridge_flops_per_byte", roof.ridgeFlopsPerByte()},
                        {"formula", ridgeFormula(roof)}};
    if (measuredBandwidth)
        j["bandwidth"] = memoryBandwidthJson(*measuredBandwidth);
    return j;
}

} // namespace napkin
