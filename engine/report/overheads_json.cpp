// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/overheads_json.h"

#include "engine/report/json_values.h"

namespace napkin {

using nlohmann::json;

void addOverheadsJson(json& doc, const AccountingInput& in, const AccountingResult& r) {
    addOverheadsJson(doc, in.overheads, r.overheads, r.usableBytes, r.predictedBytes);
}

void addOverheadsJson(json& doc, const MemoryOverheadSettings& s, const MemoryOverheads& o, const Quantity& usable,
                      const Quantity& predicted) {
    doc["memory_basis"] = std::string(memoryBasisName(o.basis));
    doc["nominal_memory_bytes"] = jsonNumber(o.nominalBytes);
    doc["usable_memory_bytes"] = jsonNumber(usable.value);
    doc["predicted_memory_bytes"] = jsonNumber(predicted.value);
    json lines = json::object();
    for (const OverheadLine& l : o.lines)
        lines[std::string(overheadKindName(l.kind))] = {
            {"label", l.label},       {"bytes", jsonNumber(l.bytes)}, {"enabled", l.enabled},
            {"measured", l.measured}, {"counted", l.counted},         {"formula", l.formula},
            {"source", l.source}};
    doc["overheads"] = {
        {"basis", std::string(memoryBasisName(o.basis))},
        {"total_bytes", jsonNumber(o.totalBytes)},
        {"fixed_bytes", jsonNumber(o.fixedBytes)},
        {"rounding_bytes", jsonNumber(o.roundingBytes)},
        {"fragmentation_bytes", jsonNumber(o.fragmentationBytes)},
        {"usable_source", o.usableSource},
        {"settings",
         {{"switches", overheadSwitchesText(s)},
          {"fragmentation", jsonNumber(s.fragmentation)},
          {"cuda_major", s.cudaMajor},
          {"cuda_context_bytes", s.cudaContextBytes ? jsonNumber(*s.cudaContextBytes) : json(nullptr)},
          {"nccl_channels", s.ncclChannels ? jsonNumber(*s.ncclChannels) : json(nullptr)},
          {"nccl_buffsize_bytes", jsonNumber(s.ncclBufferBytes)}}},
        {"lines", lines}};
    json& formulas = doc["formulas"];
    formulas["usable_memory_bytes"] = usable.formula;
    formulas["predicted_memory_bytes"] = predicted.formula;
}

} // namespace napkin
