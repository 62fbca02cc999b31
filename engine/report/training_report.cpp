// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/training_report.h"

#include "engine/benchmarks/cruncher_step_time.h"
#include "engine/report/csv_values.h"
#include "engine/report/device_report.h"
#include "engine/report/json_values.h"
#include "engine/report/memory_timeline_report.h"
#include "engine/report/step_time_json.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace napkin {
namespace {

// The formula's components in the documents' order, with their JSON and CSV names.
std::vector<std::pair<const char*, BytesPredictedMeasured>> components(const MemoryComparison& m) {
    return {{"parameters", m.parameters},
            {"gradients", m.gradients},
            {"master_weights", m.masterWeights},
            {"optimizer_state", m.optimizerState},
            {"activations", m.activations}};
}

// What the oneDNN trainer holds beyond the Eigen one's buffers, said only where it ran (the Eigen and CUDA
// documents keep their words).
// The step predicted from a hardware profile (cruncher_step_time.h): the numbers null when not predicted.
nlohmann::json predictedStepJson(const StepTime& t) {
    using nlohmann::json;
    return {{"predicted", t.predicted},
            {"seconds", t.predicted ? jsonNumber(t.seconds) : json(nullptr)},
            {"basis", t.predicted ? json(t.basis) : json(nullptr)},
            {"why_not", t.predicted ? json(nullptr) : json(t.whyNot)},
            {"not_modelled", t.notModelled},
            {"ledger", stepTimeLedgerJson(t)}};
}

std::string onednnScratchNote(const TrainingRun& run) {
    if (run.device.cpuBackend != "onednn")
        return {};
    std::string note = "; on oneDNN, 'scratch' is its scratchpad (the GEMMs' packing buffers)";
    if (run.request.config.precision == PrecisionRecipe::mixedBf16)
        note += " and an fp32 chunk (up to 4096 values) the bf16 gradients are widened through for the "
                "optimizer; master weights (fp32) are counted";
    return note;
}

// The formula's bytes for a component the device check names; null for those it does not predict.
nlohmann::json predictedFor(const MemoryComparison& m, const std::string& component) {
    if (component == "parameters")
        return jsonNumber(m.parameters.predicted);
    if (component == "master_weights")
        return jsonNumber(m.masterWeights.predicted);
    if (component == "gradients")
        return jsonNumber(m.gradients.predicted);
    if (component == "optimizer_state")
        return jsonNumber(m.optimizerState.predicted);
    if (component == "activations")
        return jsonNumber(m.activations.predicted);
    return nullptr;
}

// Where a component's cudaMemGetInfo drop differs from the bytes asked for, and why.
std::string attribution(const DeviceAllocation& a) {
    const double difference = a.memGetInfoBytes - a.requestedBytes;
    if (a.requestedBytes == 0)
        return "not allocated by the trainer: what the driver and cuBLAS took on their own";
    if (difference == 0)
        return "equal";
    if (difference > 0)
        return "allocation granularity: the driver maps device memory in pages (2 MiB for buffers of this "
               "size), so the drop is the buffers rounded up to pages, less what fit in pages already mapped";
    return "less than asked: buffers that fit in pages an earlier component had mapped";
}

// Per component on a GPU: the prediction, what the trainer asked cudaMalloc for, and cudaMemGetInfo's drop.
nlohmann::json deviceComponentsJson(const MemoryComparison& m) {
    nlohmann::json all = nlohmann::json::array();
    for (const DeviceAllocation& a : m.deviceAllocations)
        all.push_back({{"component", a.component},
                       {"predicted_bytes", predictedFor(m, a.component)},
                       {"allocated_bytes", jsonNumber(a.requestedBytes)},
                       {"buffers", a.buffers},
                       {"mem_get_info_bytes", jsonNumber(a.memGetInfoBytes)},
                       {"difference_bytes", jsonNumber(a.memGetInfoBytes - a.requestedBytes)},
                       {"attribution", attribution(a)}});
    return all;
}

nlohmann::json memoryJson(const MemoryComparison& m, const std::string& note) {
    nlohmann::json doc = {
        {"predicted_bytes", jsonNumber(m.total.predicted)},
        {"measured_bytes", jsonNumber(m.total.measured)},
        {"agree", m.total.predicted == m.total.measured},
        {"not_counted",
         {{"inputs_bytes", jsonNumber(m.inputsBytes)},
          {"workspace_bytes", jsonNumber(m.workspaceBytes)},
          {"scratch_bytes", jsonNumber(m.scratchBytes)},
          {"total_allocated_bytes", jsonNumber(m.allocatedBytes)},
          {"why",
           "the lecture counts activations as B·D·L (the L layer outputs kept for backward); the trainer "
           "also "
           "holds the input batch X (B·D) and targets (B) and the target function (D) as 'inputs', and the "
           "head output y (B), dL/dy (B) and the B·D backward temporaries as 'workspace' (the timeline's "
           "temporaries), and the implementation's own buffers as 'scratch'; none is in the formula, so "
           "measured_bytes sums parameters, gradients, optimizer state and activations only, each at its "
           "peak (activations are freed in backward, gradients at zero_grad); the timeline and its peaks "
           "count the workspace as temporaries and leave inputs and scratch out, as the prediction does" +
               note}}},
        // Next to the ledger, what the device allocator says (cudaMemGetInfo); null on the CPU.
        {"allocator_reported_bytes", jsonOptional(m.allocatorReportedBytes)},
        {"device_components", deviceComponentsJson(m)},
        // Memory over the last step: what no single moment of the step exceeds, against the sum above.
        {"timeline", timelineComparisonJson(m.predictedTimeline, m.measuredTimeline)},
        {"timeline_step", trainingStepName(m.predictedTimeline.step)},
        {"timeline_agree", m.timelineAgrees()},
        {"peak_predicted_bytes", jsonNumber(m.predictedTimeline.peakBytes)},
        {"peak_predicted_event", peakEventJson(m.predictedTimeline.events)},
        {"peak_measured_bytes", jsonNumber(m.peakMeasuredBytes)},
        {"peak_measured_event", peakEventJson(m.measuredTimeline)}};
    for (const auto& [name, bytes] : components(m))
        doc[name] = {{"predicted_bytes", jsonNumber(bytes.predicted)},
                     {"measured_bytes", jsonNumber(bytes.measured)}};
    return doc;
}

// One statistic of the device's step time, where the trainer gave one.
std::optional<double> deviceSeconds(const TrainingRun& run, double TimingSummary::*statistic) {
    if (!run.deviceStepTiming)
        return std::nullopt;
    return (*run.deviceStepTiming).*statistic;
}

// A document's value as a CSV field: numbers in their shortest exact form, null empty, text quoted as needed.
std::string csvValue(const nlohmann::json& value) {
    if (value.is_null())
        return {};
    if (value.is_boolean())
        return value.get<bool>() ? "true" : "false";
    if (value.is_number())
        return csvNumber(value.get<double>());
    if (value.is_string())
        return csvField(value.get<std::string>());
    return csvField(value.dump());
}

} // namespace

nlohmann::json trainingRunJson(const TrainingRun& run) {
    const CruncherConfig& config = run.request.config;
    return {{"benchmark", "train"},
            {"model",
             {{"kind", "cruncher"},
              {"dim", config.dim},
              {"layers", config.layers},
              {"batch", config.batch},
              {"parameters", jsonNumber(cruncherParameters(config))},
              {"frozen_layers", config.frozenLayers},
              {"trainable_parameters", jsonNumber(cruncherTrainableParameters(config))},
              {"optimizer", optimizerName(config.optimizer)},
              {"learning_rate", config.hyper.learningRate},
              {"precision", trainingRecipeName(config)},
              {"seed_init", config.seedInit},
              {"seed_data", config.seedData}}},
            {"device", deviceJson(run.device)},
            {"steps", run.request.steps},
            {"first_step", run.firstStep},
            {"flops_per_step", jsonNumber(run.flopsPerStep)},
            {"flops_per_step_formula",
             config.frozenLayers.empty()
                 ? "6·B·P − 2·B·D² (every GEMM issued, 2·m·n·k each)"
                 : "2·B·P forward + backward from the head down to the lowest trained layer: dW of each "
                   "trained layer, dX above the lowest (every GEMM issued, 2·m·n·k each)"},
            {"flops_per_step_6bp", jsonNumber(run.flopsPerStep6BP)},
            {"flops_note",
             "6·B·P also counts dX = dh_1·W_1ᵀ for the first layer (2·B·D²), which no one needs: the "
             "input batch has no gradient. Optimizer and loss arithmetic (O(P + B)) is not counted."},
            {"step_seconds_median", run.stepTiming.medianSeconds},
            {"step_seconds_p20", run.stepTiming.p20Seconds},
            {"step_seconds_p80", run.stepTiming.p80Seconds},
            {"timed_steps", run.stepTiming.samples},
            {"gpu_step_seconds_median", jsonOptional(deviceSeconds(run, &TimingSummary::medianSeconds))},
            {"gpu_step_seconds_p20", jsonOptional(deviceSeconds(run, &TimingSummary::p20Seconds))},
            {"gpu_step_seconds_p80", jsonOptional(deviceSeconds(run, &TimingSummary::p80Seconds))},
            {"batch_draw_seconds_median", jsonOptional(run.batchDrawSecondsMedian)},
            {"flops_per_second", run.flopsPerSecond},
            {"promised_flops_per_second", jsonOptional(run.promisedFlopsPerSecond)},
            {"mfu_dtype", trainingComputeDtype(config)},
            {"mfu", jsonOptional(run.mfu)},
            {"mfu_basis", run.mfuBasis},
            {"wall_mfu", jsonOptional(run.wallMfu)},
            {"predicted_step", predictedStepJson(run.predictedStep)},
            {"predicted_over_measured", jsonOptional(predictedOverMeasured(run))},
            {"loss", run.losses},
            {"memory", memoryJson(run.memory, onednnScratchNote(run))},
            {"load_average_1min", loadAverageJson()}};
}

nlohmann::json trainingRecipesJson(const std::vector<TrainingRun>& runs) {
    nlohmann::json recipes = nlohmann::json::array(), comparison = nlohmann::json::array(),
                   documents = nlohmann::json::array();
    for (const TrainingRun& run : runs) {
        nlohmann::json doc = trainingRunJson(run);
        const nlohmann::json& memory = doc["memory"];
        const nlohmann::json& loss = doc["loss"];
        recipes.push_back(doc["model"]["precision"]);
        // Read back from the run's own document: the comparison can never say what the run does not.
        comparison.push_back({{"recipe", doc["model"]["precision"]},
                              {"mfu_dtype", doc["mfu_dtype"]},
                              {"step_seconds_median", doc["step_seconds_median"]},
                              {"gpu_step_seconds_median", doc["gpu_step_seconds_median"]},
                              {"batch_draw_seconds_median", doc["batch_draw_seconds_median"]},
                              {"flops_per_second", doc["flops_per_second"]},
                              {"promised_flops_per_second", doc["promised_flops_per_second"]},
                              {"mfu", doc["mfu"]},
                              {"wall_mfu", doc["wall_mfu"]},
                              {"predicted_step_seconds", doc["predicted_step"]["seconds"]},
                              {"predicted_over_measured", doc["predicted_over_measured"]},
                              {"memory_predicted_bytes", memory["predicted_bytes"]},
                              {"memory_measured_bytes", memory["measured_bytes"]},
                              {"memory_agree", memory["agree"]},
                              {"allocator_reported_bytes", memory["allocator_reported_bytes"]},
                              {"loss_first", loss.empty() ? nlohmann::json() : loss.front()},
                              {"loss_last", loss.empty() ? nlohmann::json() : loss.back()},
                              {"cancelled", run.cancelled}});
        documents.push_back(std::move(doc));
    }
    return {{"benchmark", "train_recipes"},
            {"recipes", std::move(recipes)},
            {"comparison", std::move(comparison)},
            {"runs", std::move(documents)}};
}

std::string trainingRunCsv(const TrainingRun& run) {
    const CruncherConfig& c = run.request.config;
    std::string csv = csvRow({"section", "dim", "layers", "batch", "steps", "optimizer", "learning_rate",
                              "step_seconds_median", "step_seconds_p20", "step_seconds_p80", "flops_per_step",
                              "flops_per_second", "promised_flops_per_second", "mfu"});
    csv += csvRow({"run", std::to_string(c.dim), std::to_string(c.layers), std::to_string(c.batch),
                   std::to_string(run.request.steps), std::string(optimizerName(c.optimizer)),
                   csvNumber(c.hyper.learningRate), csvNumber(run.stepTiming.medianSeconds),
                   csvNumber(run.stepTiming.p20Seconds), csvNumber(run.stepTiming.p80Seconds),
                   csvNumber(run.flopsPerStep), csvNumber(run.flopsPerSecond),
                   csvOptional(run.promisedFlopsPerSecond), csvOptional(run.mfu)});
    csv += '\n' + csvRow({"section", "component", "predicted_bytes", "measured_bytes"});
    for (const auto& [name, bytes] : components(run.memory))
        csv += csvRow({"memory", name, csvNumber(bytes.predicted), csvNumber(bytes.measured)});
    csv += csvRow(
        {"memory", "total", csvNumber(run.memory.total.predicted), csvNumber(run.memory.total.measured)});
    csv += csvRow({"memory", "inputs (not in the formula)", "", csvNumber(run.memory.inputsBytes)});
    csv += csvRow({"memory", "workspace (not in the formula)", "", csvNumber(run.memory.workspaceBytes)});
    csv += '\n' + csvRow({"section", "event", "phase", "predicted_bytes", "measured_bytes"});
    const MemoryComparison& m = run.memory;
    for (std::size_t i = 0; i < m.predictedTimeline.events.size(); ++i) {
        const TimelineEvent& e = m.predictedTimeline.events[i];
        csv += csvRow({"timeline", csvField(stepEventName(e.event)),
                       std::string(stepPhaseName(e.event.phase)), csvNumber(e.bytes.total()),
                       csvOptional(measuredTotalAt(m.predictedTimeline, m.measuredTimeline, i))});
    }
    csv += '\n' + csvRow({"section", "step", "loss"});
    for (std::size_t i = 0; i < run.losses.size(); ++i)
        csv +=
            csvRow({"loss", std::to_string(run.firstStep + static_cast<long>(i)), csvNumber(run.losses[i])});
    return csv;
}

std::string trainingRecipesCsv(const std::vector<TrainingRun>& runs) {
    const nlohmann::json doc = trainingRecipesJson(runs);
    const nlohmann::json& comparison = doc["comparison"];
    const nlohmann::json& documents = doc["runs"];
    // The comparison's own fields are the columns (the recipe first): a field added there is exported here.
    std::vector<std::string> fields{"recipe"};
    if (!comparison.empty())
        for (const auto& item : comparison.front().items())
            if (item.key() != "recipe")
                fields.push_back(item.key());
    std::vector<std::string> header{"section"};
    header.insert(header.end(), fields.begin(), fields.end());
    header.insert(header.end(), {"peak_predicted_bytes", "peak_measured_bytes"});
    std::string csv = csvRow(header);
    for (std::size_t i = 0; i < comparison.size(); ++i) {
        std::vector<std::string> row{"comparison"};
        for (const std::string& field : fields)
            row.push_back(csvValue(comparison[i][field]));
        const nlohmann::json& memory = documents[i]["memory"];
        row.push_back(csvValue(memory["peak_predicted_bytes"]));
        row.push_back(csvValue(memory["peak_measured_bytes"]));
        csv += csvRow(row);
    }
    csv += '\n' + csvRow({"section", "recipe", "step", "loss"});
    for (const nlohmann::json& run : documents) {
        const long first = run["first_step"].get<long>();
        const nlohmann::json& loss = run["loss"];
        for (std::size_t s = 0; s < loss.size(); ++s)
            csv += csvRow({"loss", csvValue(run["model"]["precision"]),
                           std::to_string(first + static_cast<long>(s)), csvValue(loss[s])});
    }
    return csv;
}

} // namespace napkin
