// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/copy_report.h"

#include "engine/report/json_values.h"

#include <string>

namespace napkin {
namespace {

nlohmann::json resultJson(const CopyResult& r) {
    nlohmann::json j = {{"direction", std::string(copyDirectionName(r.copy.direction))},
                        {"host_memory", std::string(hostMemoryName(r.copy.hostMemory))},
                        {"bytes", r.copy.bytes},
                        {"ok", r.ok},
                        {"error", r.ok ? nlohmann::json(nullptr) : nlohmann::json(r.error)},
                        {"promised_bytes_per_second", jsonOptional(r.promisedBytesPerSecond)}};
    if (!r.ok)
        return j;
    j.update(timingJson(r.timing));
    j.update({{"warmup_runs", r.warmupRuns},
              {"bytes_per_second", r.bytesPerSecond},
              {"fraction_of_promise", r.promisedBytesPerSecond && *r.promisedBytesPerSecond > 0
                                          ? nlohmann::json(r.bytesPerSecond / *r.promisedBytesPerSecond)
                                          : nlohmann::json(nullptr)}});
    return j;
}

} // namespace

nlohmann::json copySweepJson(const CopySweep& sweep, const CopyRunOptions& options) {
    nlohmann::json results = nlohmann::json::array();
    for (const CopyResult& r : sweep.results)
        results.push_back(resultJson(r));
    return {
        {"benchmark", "copy"},
        {"device",
         {{"backend", "cuda"},
          {"name", sweep.deviceName},
          {"catalog_id", sweep.catalogId.empty() ? nlohmann::json(nullptr) : nlohmann::json(sweep.catalogId)},
          {"promised_bytes_per_second", jsonOptional(sweep.promisedBytesPerSecond)},
          {"promise_source", sweep.promisedBytesPerSecond ? nlohmann::json(sweep.promiseSource)
                                                          : nlohmann::json("no promise")}}},
        {"method",
         {{"timer",
           "CUDA events around one cudaMemcpyAsync on a non-blocking stream, synchronised after each"},
          {"host_memory", "pageable: std::vector written before timing; pinned: cudaMallocHost"},
          {"warmup_runs", options.warmupRuns},
          {"repeats", options.repeats},
          {"bytes_per_second", "bytes / median seconds"},
          {"promise", "datasheet host link (PCIe) bandwidth per direction, from the GPU catalog"}}},
        {"results", results}};
}

nlohmann::json allocCheckJson(const AllocCheck& check) {
    return {{"benchmark", "alloc"},
            {"device", {{"backend", "cuda"}, {"name", check.deviceName}}},
            {"tensors", "2 x (32 x 32 fp32)"},
            {"expected_bytes", check.expectedBytes},
            {"allocator_bytes_before", check.allocatorBytesBefore},
            {"allocator_bytes", check.allocatorBytes},
            {"mem_get_info_free_bytes_before", check.freeBytesBefore},
            {"mem_get_info_free_bytes_after", check.freeBytesAfter},
            {"mem_get_info_delta_bytes", check.memGetInfoDeltaBytes},
            {"allocator_matches", check.allocatorBytes == check.expectedBytes},
            {"note",
             "the accounting allocator counts bytes exactly; cudaMemGetInfo reports free memory in the "
             "driver's allocation granularity (often 2 MiB pages), so its delta can be 0 or larger"}};
}

} // namespace napkin
