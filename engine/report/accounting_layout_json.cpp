// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/accounting_layout_json.h"

#include "engine/report/json_values.h"

namespace napkin {
namespace {

using nlohmann::json;

std::string str(std::string_view s) {
    return std::string(s);
}

json architectureJson(const ModelSpec& m) {
    if (m.kind != ModelKind::transformer)
        return nullptr;
    return {{"d_model", jsonNumber(m.dModel)},
            {"heads", jsonNumber(m.heads)},
            {"layers", jsonNumber(m.layers)},
            {"vocab", jsonNumber(m.vocab)},
            {"seq", jsonNumber(m.seq)},
            {"kv_heads", jsonNumber(kvHeadCount(m))},
            {"ffn_dim", jsonNumber(ffnWidth(m))},
            {"mlp", str(mlpKindName(m.mlp))},
            {"norm", str(normKindName(m.norm))},
            {"bias", str(onOffName(m.bias))},
            {"embeddings", str(embeddingTyingName(m.embeddings))},
            {"position", str(positionKindName(m.position))},
            {"experts", jsonNumber(m.experts)},
            {"top_k", jsonNumber(m.topK)},
            {"dropout", str(onOffName(m.dropout))},
            {"attention_impl", str(attentionImplName(m.attentionImpl))},
            {"activations_of", str(activationProfileName(m.activationsOf))},
            // The knobs of today's families, resolved (an unset per-projection bias follows `bias`), so that
            // a script can rebuild the model from this object alone (tests/validation/ does, in torch).
            {"head_dim", jsonNumber(headWidth(m))},
            {"qkv_bias", str(onOffName(hasQkvBias(m)))},
            {"out_bias", str(onOffName(hasOutBias(m)))},
            {"mlp_bias", str(onOffName(hasMlpBias(m)))},
            {"norm_bias", str(onOffName(hasNormBias(m)))},
            {"norm_placement", str(normPlacementName(m.normPlacement))},
            {"qk_norm", str(qkNormName(m.qkNorm))},
            {"sliding_window", jsonNumber(m.slidingWindow)},
            {"kv_lora_rank", jsonNumber(m.kvLoraRank)},
            {"q_lora_rank", jsonNumber(m.qLoraRank)},
            {"qk_nope_head_dim", jsonNumber(m.qkNopeHeadDim)},
            {"qk_rope_head_dim", jsonNumber(m.qkRopeHeadDim)},
            {"v_head_dim", jsonNumber(m.vHeadDim)},
            {"expert_ffn_dim", jsonNumber(expertWidth(m))},
            {"shared_ffn_dim", jsonNumber(m.sharedFfnDim)},
            {"shared_expert_gate", str(onOffName(m.sharedExpertGate))},
            {"dense_layers", jsonNumber(m.denseLayers)},
            {"router_bias", str(onOffName(m.routerBias))},
            {"attention_sinks", str(onOffName(m.attentionSinks))}};
}

json activationLedgerJson(const ActivationMemory& a) {
    if (a.ledger.empty())
        return nullptr;
    json tensors = json::array();
    for (const ActivationLedgerRow& row : a.ledger)
        tensors.push_back({{"name", row.name},
                           {"saved_for", row.savedFor},
                           {"dtype", row.dtype},
                           {"elements", jsonNumber(row.elements)},
                           {"bytes", jsonNumber(row.bytes)},
                           {"per_layer", row.perLayer},
                           {"routed", row.routed}});
    return {{"describes", a.describes},
            {"layers", jsonNumber(a.layers)},
            {"micro_batches_in_flight", jsonNumber(a.microBatchesInFlight)},
            {"tensors", tensors}};
}

// A transformer's layers on a pipeline stage (L/p, or the uneven split); null for the other kinds.
json stageLayersJson(const AccountingInput& in, PipelineStage stage) {
    if (in.model.kind != ModelKind::transformer)
        return nullptr;
    return jsonNumber(stageLayers(in.parallel, in.model.layers, stage));
}

void addCommunication(json& doc, json& formulas, const CommunicationLedger& c) {
    json bytes, seconds;
    for (CommunicationGroup group : allCommunicationGroups()) {
        const std::string key = str(communicationGroupName(group));
        const CommunicationTotal& t = c.perGroup.at(static_cast<std::size_t>(group));
        bytes[key] = jsonNumber(t.bytes);
        seconds[key] = jsonOptional(t.seconds);
        formulas["communication_bytes_per_step." + key] = t.formula;
    }
    bytes["total"] = jsonNumber(c.total.bytes);
    seconds["total"] = jsonOptional(c.total.seconds);
    formulas["communication_bytes_per_step.total"] = c.total.formula;
    doc["communication_bytes_per_step"] = bytes;
    doc["communication_seconds_per_step"] = seconds;
    json ledger = json::array();
    for (const CommunicationItem& item : c.items)
        ledger.push_back({{"name", item.name},
                          {"group", str(communicationGroupName(item.group))},
                          {"bytes", jsonNumber(item.bytes)},
                          {"seconds", jsonOptional(item.seconds)},
                          {"link", item.link},
                          {"formula", item.formula}});
    doc["communication_ledger"] = ledger;
}

} // namespace

void addLayoutJson(json& doc, json& formulas, const AccountingInput& in, const AccountingResult& r) {
    const ParallelLayout& l = in.parallel;
    doc["architecture"] = architectureJson(in.model);
    doc["active_parameters"] = jsonNumber(r.parameters.active);
    formulas["active_parameters"] = r.parameters.activeFormula;
    doc["parallelism"] = {{"tp", jsonNumber(l.tp)},
                          {"pp", jsonNumber(l.pp)},
                          {"dp", jsonNumber(r.dataParallel.value)},
                          {"cp", jsonNumber(l.cp)},
                          {"ep", jsonNumber(l.ep)},
                          {"sp", l.sp},
                          {"microbatches", jsonNumber(l.microbatches)},
                          {"virtual_stages", jsonNumber(l.virtualStages)},
                          {"first_stage_layers", stageLayersJson(in, PipelineStage::first)},
                          {"last_stage_layers", stageLayersJson(in, PipelineStage::last)},
                          {"uneven_stages", hasUnevenStages(l)},
                          {"global_batch", jsonNumber(r.globalBatch.value)}};
    formulas["parallelism.dp"] = r.dataParallel.formula;
    formulas["parallelism.global_batch"] = r.globalBatch.formula;
    const ShardingOptions& z = in.sharding;
    doc["sharding"] = {{"two_gradient_copies", z.twoGradientCopies},
                       {"gathered_layers", str(gatheredLayersName(z.gathered))},
                       {"prefetch_layers", jsonNumber(z.prefetchLayers)},
                       {"fp32_reduce", z.fp32Reduce},
                       {"shard_group", jsonNumber(z.shardGroup)}};
    const GatheredWorkingSet& g = r.gathered;
    doc["gathered_working_set"] = g.peakBytes() > 0 ? json{{"forward_bytes", jsonNumber(g.forwardBytes)},
                                                           {"backward_bytes", jsonNumber(g.backwardBytes)},
                                                           {"parameter_bytes", jsonNumber(g.parameterBytes)}}
                                                     : json(nullptr);
    if (g.peakBytes() > 0)
        formulas["gathered_working_set"] = g.formula;
    doc["pipeline_bubble_fraction"] = jsonNumber(r.pipelineBubbleFraction.value);
    formulas["pipeline_bubble_fraction"] = r.pipelineBubbleFraction.formula;
    json stages = json::array();
    for (const PipelineStageRow& row : r.pipelineStages)
        stages.push_back({{"stage", jsonNumber(row.index)},
                          {"layers", jsonNumber(row.layers)},
                          {"holds", row.holds},
                          {"parameters", jsonNumber(row.parameters)},
                          {"model_state_bytes", jsonNumber(row.statesBytes)},
                          {"micro_batches_in_flight", jsonNumber(row.microBatchesInFlight)},
                          {"activation_bytes", jsonNumber(row.activationBytes)},
                          {"gathered_bytes", jsonNumber(row.gatheredBytes)},
                          {"total_bytes", jsonNumber(row.totalBytes)}});
    doc["pipeline_stages"] = r.pipelineStages.empty() ? json(nullptr) : stages;
    doc["pipeline_stage"] = r.memoryStage ? json(str(pipelineStageName(*r.memoryStage))) : json(nullptr);
    doc["parameters_per_gpu"] = jsonNumber(r.parametersOnGpu.value);
    formulas["parameters_per_gpu"] = r.parametersOnGpu.formula;
    doc["activation_ledger"] = activationLedgerJson(r.activations);
    addCommunication(doc, formulas, r.communication);
    doc["max_parameters_pooled"] = jsonNumber(r.maxParametersPooled.value);
    formulas["max_parameters_pooled"] = r.maxParametersPooled.formula;
    doc["fit_advice"] = r.fitAdvice.empty() ? json(nullptr) : json(r.fitAdvice);
}

} // namespace napkin
