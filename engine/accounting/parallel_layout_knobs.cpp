// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/parallel_layout_knobs.h"

#include <array>

namespace napkin {

std::span<const NumberKnob<ParallelLayout>> parallelLayoutKnobs() {
    using L = ParallelLayout;
    // Every size is a whole number from 1; the words are those validateLayout gave before the table.
    static const std::array<NumberKnob<L>, 8> knobs{{
        {"tp",
         "--tp",
         "tensor-parallel GPUs (default 1)",
         {1, 1024, false, "", false, true, "must be a whole number from 1 to 1024"},
         &L::tp,
         nullptr,
         {"&Tensor (tp):", 1, 0,
          "Tensor parallel t: each layer's heads and MLP width split over t GPUs (keep t within a node's "
          "NVLink). Must divide the heads and KV heads."}},
        {"pp",
         "--pp",
         "pipeline stages (default 1)",
         {1, 1e5, false, "", false, true, "must be a whole number from 1 to 100000"},
         &L::pp,
         nullptr,
         {"&Pipeline (pp):", 1, 0,
          "Pipeline stages p: each stage holds L/p layers; 1F1B keeps min(p, m) micro-batches in flight on "
          "the first. Must divide the layers."}},
        {"cp",
         "--cp",
         "context-parallel GPUs (default 1; needs --attention-impl flash)",
         {1, 1024, false, "", false, true, "must be a whole number from 1 to 1024"},
         &L::cp,
         nullptr,
         {"&Context (cp):", 1, 0,
          "Context parallel: the sequence split over GPUs, K and V passed round a ring."}},
        {"ep",
         "--ep",
         "expert-parallel GPUs (default 1; divides --experts)",
         {1, 1024, false, "", false, true, "must be a whole number from 1 to 1024"},
         &L::ep,
         nullptr,
         {"E&xpert (ep):", 1, 0, "Expert parallel: each layer's experts split over the data-parallel GPUs."}},
        {"microbatches",
         "--microbatches",
         "micro-batches per step (default 1)",
         {1, 1e6, false, "", false, true, "must be a whole number from 1 to 1.00e6"},
         &L::microbatches,
         nullptr,
         {"&Micro-batches:", 1, 0,
          "Micro-batches per step: gradient accumulation, and what fills the pipeline. The global batch is "
          "batch × micro-batches × dp."}},
        {"virtual_stages",
         "--virtual-stages",
         "model chunks per pipeline stage, Megatron's interleaved 1F1B (default 1)",
         {1, 64, false, "", false, true, "must be a whole number from 1 to 64"},
         &L::virtualStages,
         nullptr,
         {"&Virtual stages (v):", 1, 0,
          "Virtual stages v: Megatron-LM's interleaved 1F1B, v model chunks per stage. The bubble shrinks to "
          "(p − 1)/(v·m + p − 1); the first stage holds p + (p − 1)/v micro-batches. p·v must divide the "
          "layers, p the micro-batches."}},
        // Megatron-LM's --decoder-first-pipeline-num-layers and --decoder-last-pipeline-num-layers.
        {"first_stage_layers",
         "--first-stage-layers",
         "layers on the first pipeline stage, the stages after it sharing the rest evenly (as Megatron-LM's "
         "decoder_first_pipeline_num_layers; default L/p)",
         {1, 1e5, false, "", false, true, "must be a whole number of layers from 1 to 100000"},
         nullptr,
         &L::firstStageLayers,
         {"&First stage layers:", 1, 0,
          "Layers on the first pipeline stage when the stages are uneven: it also holds the embedding and "
          "the most micro-batches in flight, so published runs give it fewer (Llama 3 405B: 7 of 126 on 16 "
          "stages). The stages between share the rest evenly.",
          "uneven", 0}},
        {"last_stage_layers",
         "--last-stage-layers",
         "layers on the last pipeline stage, the others sharing the rest evenly (as Megatron-LM's "
         "decoder_last_pipeline_num_layers; default L/p)",
         {1, 1e5, false, "", false, true, "must be a whole number of layers from 1 to 100000"},
         nullptr,
         &L::lastStageLayers,
         {"&Last stage layers:", 1, 0,
          "Layers on the last pipeline stage when the stages are uneven: it also holds the output layer and "
          "the logits. The stages between share the rest evenly.",
          "uneven", 0}},
    }};
    return knobs;
}

} // namespace napkin
