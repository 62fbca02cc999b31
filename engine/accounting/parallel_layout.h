// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How one training step is spread over the GPUs: tensor, pipeline, context and expert parallelism,
// sequence parallelism, micro-batches, and data parallelism over what is left.
#include "engine/models/input_error.h"
#include "engine/models/model_spec.h"

#include <optional>
#include <string>
#include <string_view>

namespace napkin {

struct ParallelLayout {
    double tp = 1;   ///< tensor parallel t (Shoeybi et al. 2019): splits heads and the MLP width
    double pp = 1;   ///< pipeline stages p: each holds L/p layers (1F1B schedule)
    double cp = 1;   ///< context parallel: splits the sequence (ring attention; needs flash attention)
    double ep = 1;   ///< expert parallel: splits each layer's experts over the data-parallel GPUs
    bool sp = false; ///< sequence parallel (Korthikanti et al. 2022): also splits the norms' and
                     ///< dropouts' activations by t
    double microbatches = 1; ///< m micro-batches of `batch` sequences per step (gradient accumulation)
    /// v model chunks per pipeline stage: Megatron-LM's interleaved 1F1B (Narayanan et al. 2021, section
    /// 2.2.2); 1 is the plain 1F1B schedule.
    double virtualStages = 1;
    /// Megatron-LM's uneven pipeline (--decoder-first-pipeline-num-layers and
    /// --decoder-last-pipeline-num-layers): the layers of the first and of the last stage, the stages
    /// between sharing the rest evenly. Llama 3 405B's 126 layers on 16 stages: 7, then 14 × 8, then 7 (the
    /// Llama 3 paper, section 3.3.2: a layer fewer on the first and last stages). Unset: L/p each.
    std::optional<double> firstStageLayers;
    std::optional<double> lastStageLayers;
    bool operator==(const ParallelLayout&) const = default;
};

/// The stages whose GPUs hold the most: the first (embedding, the in-flight micro-batches of 1F1B) and
/// the last (output layer, logits). With one stage they are the same GPU. `middle` is the second stage
/// (the most micro-batches in flight after the first's), a candidate only when the stages hold unequal
/// layers: with lighter first and last stages it can hold the most.
enum class PipelineStage { first, last, middle };
std::string_view pipelineStageName(PipelineStage stage);

/// Layers on the first stage, on each stage between, and on the last.
struct StageLayerCounts {
    double first = 0, middle = 0, last = 0;
};
/// L/p each, or the uneven split of firstStageLayers and lastStageLayers (one of them unset: the other
/// stages share the rest evenly); whole where validateLayout accepted the layout. One stage: L.
StageLayerCounts stageLayerCounts(const ParallelLayout& layout, double layers);
/// The layers on `stage`'s GPUs.
double stageLayers(const ParallelLayout& layout, double layers, PipelineStage stage);
/// The layers on stage `index` (0 … p − 1).
double stageLayers(const ParallelLayout& layout, double layers, double index);
/// Whether firstStageLayers or lastStageLayers is set.
bool hasUnevenStages(const ParallelLayout& layout);

/// tp·pp·cp: the GPUs one model replica spans.
double modelParallelSize(const ParallelLayout& layout);
/// dp = GPUs / (tp·pp·cp), whole when the layout is valid.
double dataParallelSize(const ParallelLayout& layout, double gpus);
/// Idle fraction of a 1F1B (or GPipe) step: (p − 1) / (m + p − 1) (Narayanan et al. 2021, eq. 1); with v
/// interleaved chunks the bubble shrinks v-fold, (p − 1)/v against m micro-batches' work: (p − 1) / (v·m +
/// p − 1), the paper's bubble ratio (p − 1)/(v·m) (section 2.2.2) as a share of the whole step.
double pipelineBubbleFraction(const ParallelLayout& layout);
/// Micro-batches whose activations a stage holds at the peak of 1F1B: min(p, m) on the first stage,
/// 1 on the last (Narayanan et al. 2021, section 2.2.1; Korthikanti et al. 2022, section 4.2.3).
double microBatchesInFlight(const ParallelLayout& layout, PipelineStage stage);
/// The same for stage `index` (0 … p − 1), in whole-stage micro-batches: min(p − i, m) under 1F1B; with v
/// chunks, Megatron-LM's interleaved warm-up ((p − i − 1)·2 + (v − 1)·p chunk micro-batches,
/// megatron/core/pipeline_parallel/schedules.py) plus the one in 1F1B, each 1/v of the stage's layers,
/// capped at the v·m there are: min(2·(p − i − 1) + (v − 1)·p + 1, v·m) / v. On the first stage that is
/// p + (p − 1)/v, theoretical_memory_usage.py's interleaved_schedule_memory_penalty 1 + (p − 1)/(p·v) × p.
double microBatchesInFlight(const ParallelLayout& layout, double stageIndex);
/// Nothing but data parallelism (the only layout before tensor/pipeline/context/expert parallelism).
bool isDataParallelOnly(const ParallelLayout& layout);
/// "tp 8 × pp 2 × cp 1, sp" for notes and advice.
std::string layoutText(const ParallelLayout& layout);

/// Checks the layout against the model and GPU count: whole sizes, tp dividing heads and kv-heads,
/// pp dividing layers, cp needing flash attention, ep dividing the experts and dp·cp, sp needing tp > 1,
/// and GPUs a multiple of tp·pp·cp. Fields are the CLI's option names ("tp", "sp", "gpus", ...).
InputError validateLayout(const ParallelLayout& layout, const ModelSpec& model, double gpus);

} // namespace napkin
