// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/tensor_report.h"

#include <string>

namespace napkin {

nlohmann::json tensorStepJson(const TensorStep& step) {
    const TensorLayout& t = step.layout;
    nlohmann::json j;
    j["expr"] = step.expr;
    j["shape"] = t.shape;
    j["stride"] = t.stride;
    j["offset"] = t.offset;
    j["contiguous"] = isContiguous(t);
    j["storage"] = t.storageId;
    j["storage_bytes"] = t.storageBytes();
    j["numel"] = t.numel();
    j["is_view"] = step.isView;
    j["bytes_allocated"] = step.bytesAllocated;
    j["bytes_copied"] = step.bytesCopied;
    const auto offsets = elementOffsets(t, kMaxListedOffsets);
    j["offsets"] = offsets ? nlohmann::json(*offsets) : nlohmann::json(nullptr);
    return j;
}

nlohmann::json tensorEvaluationJson(const std::vector<int64_t>& shape, const TensorDType& dtype,
                                    std::string_view expression, const TensorEvaluation& e) {
    nlohmann::json j;
    j["input"] = {{"shape", shape},
                  {"dtype", dtype.name},
                  {"element_bytes", dtype.bytes},
                  {"expression", std::string(expression)}};
    j["steps"] = nlohmann::json::array();
    for (const TensorStep& step : e.steps)
        j["steps"].push_back(tensorStepJson(step));
    if (e.error) {
        j["error"] = {
            {"step", e.error->step},
            {"message", e.error->message},
            {"position", e.error->position ? nlohmann::json(*e.error->position) : nlohmann::json()}};
    } else {
        j["error"] = nullptr;
    }
    return j;
}

} // namespace napkin
