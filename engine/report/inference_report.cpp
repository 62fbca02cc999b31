// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/inference_report.h"

#include "engine/inference/inference_warnings.h"
#include "engine/accounting/run_cost.h"
#include "engine/report/cli_command_line.h"
#include "engine/report/json_values.h"
#include "engine/report/overheads_json.h"
#include "engine/report/step_time_json.h"

#include <utility>

namespace napkin {

using nlohmann::json;

json inferenceToJson(const InferenceInput& in, const GpuSpec& gpu, const InferenceResult& r,
                     const InferenceTimes* times) {
    json doc;
    doc["model"] = std::string(modelKindName(in.model.kind));
    doc["parameters"] = jsonNumber(r.parameters);
    doc["quantized_parameters"] = jsonNumber(r.quantizedParameters);
    doc["other_parameters"] = jsonNumber(r.otherParameters);
    doc["batch"] = jsonNumber(in.batch);
    doc["context"] = jsonNumber(in.context);
    doc["prompt"] = jsonNumber(in.prompt ? *in.prompt : in.context);
    doc["weights"] = std::string(weightFormatName(in.weights));
    doc["weights_scope"] = in.expertsOnly ? "experts" : "layers";
    doc["group_size"] = hasGroupScales(in.weights) ? jsonNumber(in.groupSize) : json(nullptr);
    doc["kv_cache"] = std::string(storageTypeName(in.kvCache));
    doc["gpu"] = {{"id", gpu.id},
                  {"name", gpu.name},
                  {"count", jsonNumber(in.gpus)},
                  {"memory_bytes", jsonNumber(gpu.memoryBytes)},
                  {"memory_bandwidth_bytes_per_second", jsonNumber(r.bandwidthBytesPerSecond.value)},
                  {"compute", std::string(computeTypeName(weightComputeType(in.weights)))},
                  {"dense_peak_flops_per_second", jsonNumber(r.peakFlopsPerSecond.value)},
                  {"source", gpu.source}};

    const std::pair<const char*, const Quantity*> fields[] = {
        {"weights_bytes", &r.weightsBytes},
        {"kv_cache_bytes_per_token", &r.kvCacheBytesPerToken},
        {"kv_cache_bytes", &r.kvCacheBytes},
        {"capacity_bytes", &r.capacityBytes},
        {"prefill_flops", &r.prefillFlops},
        {"prefill_seconds", &r.prefillSeconds},
        {"prefill_bytes", &r.prefillBytes},
        {"decode_flops_per_token", &r.decodeFlopsPerToken},
        {"decode_step_flops", &r.decodeStepFlops},
        {"experts_read_per_step", &r.expertsReadPerStep},
        {"decode_bytes_per_token", &r.decodeBytesPerToken},
        {"decode_seconds_per_token", &r.decodeSecondsPerToken},
        {"decode_tokens_per_second", &r.decodeTokensPerSecond},
        {"arithmetic_intensity", &r.arithmeticIntensity},
        {"ridge_flops_per_byte", &r.ridgeFlopsPerByte},
        {"decode_flops_per_second_per_gpu", &r.decodeFlopsPerSecondPerGpu},
        {"prefill_arithmetic_intensity", &r.prefillArithmeticIntensity},
        {"prefill_flops_per_second_per_gpu", &r.prefillFlopsPerSecondPerGpu},
        {"max_batch", &r.maxBatch},
        {"max_context", &r.maxContext}};
    json formulas;
    for (const auto& [key, quantity] : fields) {
        doc[key] = jsonNumber(quantity->value);
        formulas[key] = quantity->formula;
    }
    doc["memory_bytes"] = {{"weights", jsonNumber(r.memory.weights.value)},
                           {"kv_cache", jsonNumber(r.memory.kvCache.value)},
                           {"activations", jsonNumber(r.memory.activations.value)},
                           {"total", jsonNumber(r.memory.total.value)}};
    formulas["memory_bytes.weights"] = r.memory.weights.formula;
    formulas["memory_bytes.kv_cache"] = r.memory.kvCache.formula;
    formulas["memory_bytes.activations"] = r.memory.activations.formula;
    formulas["memory_bytes.total"] = r.memory.total.formula;
    doc["fits"] = r.fits;
    doc["formulas"] = formulas;
    addOverheadsJson(doc, in.overheads, r.overheads, r.usableBytes, r.predictedBytes);
    formulas = doc["formulas"];
    formulas["fits"] = r.fitsFormula;
    doc["bound"] = r.bound;
    // Predicted by the training step's model (inference_time.h), beside the roofline's lower bounds.
    const InferenceTimes predicted = times ? *times : inferenceTimeFromProfile(in, gpu, nullptr);
    doc["prefill_time"] = inferenceTimeJson(predicted.prefill);
    doc["decode_time"] = inferenceTimeJson(predicted.decode);
    // The cost of the tokens at the decode rate (run_cost.h): price × GPUs / (tokens/s × 3600) × 1e6.
    RunCostInput price;
    price.pricePerGpuHour = in.pricePerGpuHour;
    const std::optional<Quantity> perMillion =
        dollarsPerMillionTokens(r.decodeTokensPerSecond.value, in.gpus, price);
    doc["warnings"] = inferenceWarnings(in, gpu); // what the part cannot do, a context past the model's
    doc["price_per_gpu_hour"] = in.pricePerGpuHour ? jsonNumber(*in.pricePerGpuHour) : json(nullptr);
    doc["dollars_per_million_tokens"] = perMillion ? jsonNumber(perMillion->value) : json(nullptr);
    if (perMillion)
        formulas["dollars_per_million_tokens"] = perMillion->formula;
    doc["formulas"] = formulas;
    doc["command"] = inferCommandLine(in);
    return doc;
}

} // namespace napkin
