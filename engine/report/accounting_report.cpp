// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/accounting_report.h"

#include "engine/accounting/capability_rules.h"
#include "engine/allocator/fit_searches.h"
#include "engine/benchmarks/accounting_benchmark.h"
#include "engine/numerics/quantity_format.h"
#include "engine/peers/peer_estimates.h"
#include "engine/report/accounting_layout_json.h"
#include "engine/report/cli_command_line.h"
#include "engine/report/fine_tuning_json.h"
#include "engine/report/json_values.h"
#include "engine/report/memory_timeline_report.h"
#include "engine/report/overheads_json.h"
#include "engine/report/peer_estimates_json.h"
#include "engine/report/reserved_memory_json.h"
#include "engine/report/run_cost_json.h"
#include "engine/report/step_time_json.h"

namespace napkin {
namespace {

using nlohmann::json;

json optionalNumber(const std::optional<Quantity>& q) {
    return q ? jsonNumber(q->value) : json(nullptr);
}

void addFormula(json& formulas, const std::string& key, const std::optional<Quantity>& q) {
    if (q)
        formulas[key] = q->formula;
}

} // namespace

json accountingToJson(const AccountingInput& in, const GpuSpec& gpu, const AccountingResult& r,
                      const AllocatorConfig& allocator, const StepTime* stepTime) {
    json doc;
    doc["model"] = std::string(modelKindName(in.model.kind));
    doc["parameters"] = jsonNumber(r.parameters.total);
    doc["matmul_parameters"] = jsonNumber(r.parameters.matmulParameters);
    json components = json::array();
    for (const NamedCount& c : r.parameters.components)
        components.push_back({{"name", c.name}, {"count", jsonNumber(c.count)}});
    doc["parameter_components"] = components;

    doc["bytes_per_parameter"] = jsonNumber(r.bytesPerParameter.total);
    doc["bytes_per_parameter_ledger"] = r.bytesPerParameter.ledger;
    doc["precision"] = {{"recipe", std::string(precisionRecipeName(in.precision))},
                        {"parameters", std::string(storageTypeName(r.precision.parameters))},
                        {"gradients", std::string(storageTypeName(r.precision.gradients))},
                        {"master_weights", std::string(storageTypeName(r.precision.masterWeights))},
                        {"optimizer_state", std::string(storageTypeName(r.precision.optimizerState))},
                        {"activations", std::string(storageTypeName(r.precision.activations))},
                        {"compute", std::string(computeTypeName(r.precision.compute))}};
    doc["optimizer"] = {{"name", std::string(optimizerName(in.optimizer))},
                        {"implementation", std::string(optimizerImplementationName(in.optimizerImplementation))},
                        {"state_tensors_per_parameter", r.bytesPerParameter.optimizerStateTensors}};

    doc["memory_bytes"] = {{"parameters", jsonNumber(r.memory.parameters.value)},
                           {"gradients", jsonNumber(r.memory.gradients.value)},
                           {"master_weights", jsonNumber(r.memory.masterWeights.value)},
                           {"optimizer_state", jsonNumber(r.memory.optimizerState.value)},
                           {"activations", jsonNumber(r.memory.activations.value)},
                           {"total", jsonNumber(r.memory.total.value)}};
    doc["activations_modelled"] = r.activationsModelled;
    const MemoryTimeline timeline = memoryTimeline(in, r);
    doc["memory_timeline"] = memoryTimelineJson(timeline.events);
    doc["peak_memory_bytes"] = jsonNumber(r.peakMemory.value);
    doc["peak_event"] = peakEventJson(timeline.events);
    doc["peak_memory_basis"] = r.peakFromTimeline ? "timeline" : "sum";
    // reserved_bytes per event, reserved_memory, and the verdict judged on it (fits_on, fits_verdict)
    const FitVerdict verdict = addReservedMemoryJson(doc, in, r, allocator, &timeline);
    if (!timeline.optimizerTemporariesFormula.empty()) // pytorch-eager: torch.optim's unfused update
        doc["optimizer_step_temporaries"] = {{"bytes", jsonNumber(timeline.optimizerTemporaries)},
                                             {"formula", timeline.optimizerTemporariesFormula}};

    const StepFlops& f = r.flopsPerStep;
    doc["tokens_per_step"] = jsonNumber(f.tokens);
    doc["flops_per_step"] = {{"forward", jsonNumber(f.forward)},
                             {"backward", jsonNumber(f.backward)},
                             {"recompute", jsonNumber(f.recompute)},
                             {"total", jsonNumber(f.total)}};
    json flopComponents = json::array();
    for (const ComponentFlops& c : f.components)
        flopComponents.push_back({{"name", c.name},
                                  {"forward", jsonNumber(c.forward)},
                                  {"backward", jsonNumber(2 * c.forward)},
                                  {"formula", c.formula}});
    doc["flop_components"] = flopComponents;
    doc["flops_per_token"] = jsonNumber(r.flopsPerToken.value);
    doc["hardware_flops_per_token"] = jsonNumber(r.hardwareFlopsPerToken.value);

    doc["training_tokens"] = in.trainingTokens ? jsonNumber(*in.trainingTokens) : json(nullptr);
    doc["training_flops"] = optionalNumber(r.trainingFlops);
    doc["training_hardware_flops"] = optionalNumber(r.trainingHardwareFlops);
    doc["training_seconds"] = optionalNumber(r.trainingSeconds);
    doc["training_days"] = optionalNumber(r.trainingDays);
    doc["gpu_days"] = optionalNumber(r.gpuDays);
    doc["time_unavailable"] = r.timeUnavailable.empty() ? json(nullptr) : json(r.timeUnavailable);

    doc["gpu"] = {
        {"id", gpu.id},
        {"name", gpu.name},
        {"count", jsonNumber(in.gpus)},
        {"memory_bytes", jsonNumber(gpu.memoryBytes)},
        {"memory_bandwidth_bytes_per_second", jsonNumber(gpu.memoryBandwidthBytesPerSecond)},
        {"dense_peak_flops_per_second", jsonNumber(r.densePeakFlopsPerSecond.value)},
        {"sparse_peak_flops_per_second", jsonNumber(sparsePeakFlopsPerSecond(gpu, r.precision.compute))},
        {"source", gpu.source}};
    doc["mfu"] = in.mfu;
    doc["hfu"] = jsonNumber(r.hfu.value);
    doc["zero_stage"] = in.zeroStage;
    doc["recompute"] = std::string(recomputeName(in.recompute));
    doc["attention"] = std::string(attentionMaskName(in.attention));
    doc["batch"] = jsonNumber(in.batch);

    doc["max_parameters"] = jsonNumber(r.maxParameters.value);
    doc["max_batch"] = optionalNumber(r.maxBatch);
    doc["max_sequence"] = optionalNumber(r.maxSequence);
    doc["fits"] = r.fits;
    doc["fits_on"] = std::string(fitBasisName(verdict.basis));
    doc["fits_verdict"] = verdict.fits;
    // The largest batch and sequence and the fit advice judged as fits_verdict is (fit_searches.h): on
    // reserved where it is, each probe a replay; on allocated they are max_batch's, max_sequence's,
    // fit_advice's.
    const FitSearches searches = searchFits(in, gpu, r, verdict, allocator);
    doc["searches_on"] = std::string(fitBasisName(searches.basis));
    doc["max_batch_verdict"] = optionalNumber(searches.maxBatch);
    doc["max_sequence_verdict"] = optionalNumber(searches.maxSequence);
    doc["fit_advice_verdict"] = searches.fitAdvice.empty() ? json(nullptr) : json(searches.fitAdvice);

    json formulas;
    formulas["parameters"] = r.parameters.formula;
    formulas["bytes_per_parameter"] = r.bytesPerParameter.ledger;
    formulas["memory_bytes.parameters"] = r.memory.parameters.formula;
    formulas["memory_bytes.gradients"] = r.memory.gradients.formula;
    formulas["memory_bytes.master_weights"] = r.memory.masterWeights.formula;
    formulas["memory_bytes.optimizer_state"] = r.memory.optimizerState.formula;
    formulas["memory_bytes.activations"] = r.memory.activations.formula;
    formulas["memory_bytes.total"] = r.memory.total.formula;
    formulas["peak_memory_bytes"] = r.peakMemory.formula;
    formulas["flops_per_step.forward"] = f.forwardFormula;
    formulas["flops_per_step.backward"] = f.backwardFormula;
    formulas["flops_per_step.recompute"] = f.recomputeFormula;
    formulas["flops_per_step.total"] = f.totalFormula;
    formulas["flops_per_token"] = r.flopsPerToken.formula;
    formulas["hardware_flops_per_token"] = r.hardwareFlopsPerToken.formula;
    formulas["hfu"] = r.hfu.formula;
    addFormula(formulas, "training_flops", r.trainingFlops);
    addFormula(formulas, "training_hardware_flops", r.trainingHardwareFlops);
    addFormula(formulas, "training_seconds", r.trainingSeconds);
    addFormula(formulas, "training_days", r.trainingDays);
    addFormula(formulas, "gpu_days", r.gpuDays);
    formulas["dense_peak_flops_per_second"] = r.densePeakFlopsPerSecond.formula;
    formulas["max_parameters"] = r.maxParameters.formula;
    addFormula(formulas, "max_batch", r.maxBatch);
    addFormula(formulas, "max_sequence", r.maxSequence);
    formulas["fits"] = r.fitsFormula;
    formulas["fits_verdict"] = verdict.formula;
    addFormula(formulas, "max_batch_verdict", searches.maxBatch);
    addFormula(formulas, "max_sequence_verdict", searches.maxSequence);
    addLayoutJson(doc, formulas, in, r);
    addFineTuningJson(doc, formulas, in, r);
    addRunCostJson(doc, formulas, in, r);
    doc["peer_estimates"] = peerEstimatesJson(peerEstimates(in, r)); // other calculators' answers
    // The caller's step time, or the GPU's published one: here, not in account(), so the tick stays as fast.
    doc["step_time"] = stepTimeJson(stepTime ? *stepTime : publishedStepTime(in, r, gpu));
    doc["warnings"] = capabilityWarnings(in, gpu); // the CLI adds what fell back before (capability_rules.h)
    doc["gpu"]["capabilities"] = gpuCapabilityJson(gpu);
    doc["formulas"] = formulas;
    addOverheadsJson(doc, in, r);
    doc["notes"] = r.notes;
    doc["command"] = accountCommandLine(in);
    return doc;
}

nlohmann::json workCountsJson(const WorkCounts& work) {
    return {{"peak_evaluations", work.peakEvaluations},
            {"fast_peaks", work.fastPeaks},
            {"timeline_builds", work.timelineBuilds},
            {"activation_ledgers", work.activationLedgers},
            {"formatted_numbers", work.formattedNumbers}};
}

nlohmann::json accountingBenchmarkJson(const AccountingBenchmarkSetup& setup, const TimingSummary& t,
                                       const WorkCounts& work) {
    return {{"benchmark", "account"},
            {"setup", setup.id},
            {"configuration", setup.configuration},
            {"seconds_median", t.medianSeconds},
            {"seconds_p20", t.p20Seconds},
            {"seconds_p80", t.p80Seconds},
            {"seconds_min", t.minSeconds},
            {"seconds_max", t.maxSeconds},
            {"samples", t.samples},
            {"target_seconds", setup.targetSeconds},
            {"meets_target", t.medianSeconds < setup.targetSeconds},
            {"work", workCountsJson(work)}};
}

} // namespace napkin
