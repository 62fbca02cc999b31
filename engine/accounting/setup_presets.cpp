// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/setup_presets.h"

#include "engine/models/model_presets.h"
#include "engine/text/ascii_case.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace napkin {
namespace {

// A model's shape from the table of published configurations.
ModelSpec publishedModel(std::string_view id) {
    return findModelPreset(id)->model;
}

SetupPreset lectureTraining() {
    SetupPreset p{"70b-15t-1024-h100",
                  "70B on 15T tokens with 1024 H100s",
                  "6·70e9·15e12 = 6.3e24 FLOPs → ≈144 days",
                  {}};
    p.input.model.kind = ModelKind::dense;
    p.input.model.parameters = 70e9;
    p.input.trainingTokens = 15e12;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpu = "H100-SXM";
    p.input.gpus = 1024;
    p.input.mfu = 0.5;
    // ZeRO-3 so that the 16 B/param model states (1.12 TB) are spread over the 1024 GPUs and fit.
    p.input.zeroStage = 3;
    return p;
}

SetupPreset lectureLargestModel() {
    SetupPreset p{"largest-8-h100",
                  "Largest model on 8 H100s with AdamW",
                  "4 + 4 + 4 + 4 = 16 B/param → 8 × 80e9 B / 16 B = 40e9 params",
                  {}};
    p.input.model.kind = ModelKind::dense;
    p.input.model.parameters = 40e9; // exactly the answer: the bar reaches the capacity line
    p.input.precision = PrecisionRecipe::fp32;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpu = "H100-SXM";
    p.input.gpus = 8;
    p.input.zeroStage = 3; // the lecture pools the 8 GPUs' memory: every state sharded
    // The lecture's question in the lecture's convention: the datasheet's 80 GB = 80e9 B and no overheads
    // (memory_overheads.h); the usable basis (85.52e9 B less the workspaces) would answer ≈ 42.7e9.
    p.input.overheads = datasheetOverheads();
    return p;
}

SetupPreset lectureCruncher() {
    SetupPreset p{"cruncher",
                  "Cruncher D=4, 2 layers, AdaGrad",
                  "4·(36 + 16 + 36 + 36) = 496 bytes; 6·2·36 = 432 FLOPs per step",
                  {}};
    p.input.model.kind = ModelKind::cruncher;
    p.input.model.dim = 4;
    p.input.model.layers = 2;
    p.input.batch = 2;
    p.input.precision = PrecisionRecipe::fp32;
    p.input.optimizer = OptimizerKind::adagrad;
    p.input.gpus = 1;
    return p;
}

SetupPreset gpt2Small() {
    SetupPreset p{
        "gpt2-small", "GPT-2 small", "12·L·d² + 13·L·d + V·d + S·d + 2·d = 124,439,808 parameters", {}};
    p.input.model = publishedModel("gpt2-small");
    p.input.batch = 8;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpus = 1;
    return p;
}

SetupPreset gpt3() {
    SetupPreset p{"gpt3-175b", "GPT-3 175B", "≈175e9 parameters trained on 300e9 tokens", {}};
    p.input.model = publishedModel("gpt3-175b");
    p.input.batch = 1;
    p.input.trainingTokens = 300e9;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adam;
    // A scenario, not history: 1024 H100s with ZeRO-3 and full recompute so that one sequence fits.
    p.input.gpu = "H100-SXM";
    p.input.gpus = 1024;
    p.input.mfu = 0.5;
    p.input.zeroStage = 3;
    p.input.recompute = Recompute::full;
    return p;
}

// Today's models: their published shapes on a layout that fits, with the training settings of their
// papers where those say (bf16 mixed precision, AdamW, 15T tokens for Llama 3).
SetupPreset llamaTraining(std::string_view id, std::string_view name, std::string_view expectation,
                          double gpus, double tp, double pp, double microbatches) {
    SetupPreset p{id, name, expectation, {}};
    p.input.model = publishedModel(id);
    p.input.batch = 1;
    p.input.trainingTokens = 15e12;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpu = "H100-SXM";
    p.input.gpus = gpus;
    p.input.mfu = 0.4;
    p.input.zeroStage = 1;
    p.input.parallel.tp = tp;
    p.input.parallel.pp = pp;
    p.input.parallel.sp = tp > 1;
    p.input.parallel.microbatches = microbatches;
    return p;
}

SetupPreset llama3_405b() {
    // Meta trained at tp 8 × pp 16 with uneven stages; Napkin's stages are even, so 126 layers take 18,
    // and context parallelism 2 halves the 8192-token activations so that one sequence fits.
    SetupPreset p = llamaTraining("llama3-405b", "Llama 3 405B, tp 8 × cp 2 × pp 18 on 18,432 H100s",
                                  "405,853,388,800 parameters; 7 layers per stage", 18432, 8, 18, 18);
    p.input.parallel.cp = 2;
    return p;
}

SetupPreset mixtral() {
    SetupPreset p = llamaTraining("mixtral-8x7b", "Mixtral 8x7B, tp 8 × ep 8 on 64 H100s",
                                  "46.7B parameters, 12.9B active per token", 64, 8, 1, 1);
    p.input.trainingTokens = std::nullopt; // its training data is not published
    p.input.parallel.ep = 8;
    return p;
}

// QLoRA's setting (Dettmers et al. 2023): NF4 base, rank-16 adapters on every linear layer, bf16 compute
// with fp32 optimizer state, gradient checkpointing; one 2048-token sequence per step.
SetupPreset llama3_8bQlora() {
    SetupPreset p{"llama3-8b-qlora-24gb", "Llama 3 8B QLoRA r=16 on one 24 GB GPU",
                  "41,943,040 trainable of 8,072,204,288; NF4 base ≈ 5.7 GB", {}};
    p.input.model = publishedModel("llama3-8b");
    p.input.model.seq = 2048;
    p.input.batch = 1;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpu = "RTX-4090";
    p.input.recompute = Recompute::full;
    p.input.fineTuning.method = FineTuneMethod::qlora;
    return p;
}

// The same adapters on a bf16 base that one H100 holds whole: LoRA without quantisation.
SetupPreset llama3_8bLora() {
    SetupPreset p = llama3_8bQlora();
    p.id = "llama3-8b-lora-h100";
    p.name = "Llama 3 8B LoRA r=16 on one H100";
    p.expectation = "bf16 base 16.06 GB + adapters; full fine-tuning (16 B/param) needs 128 GB";
    p.input.gpu = "H100-SXM";
    p.input.fineTuning.method = FineTuneMethod::lora;
    return p;
}

const std::vector<SetupPreset>& table() {
    static const std::vector<SetupPreset> presets{
        lectureTraining(),
        lectureLargestModel(),
        lectureCruncher(),
        gpt2Small(),
        gpt3(),
        llamaTraining("llama3-8b", "Llama 3 8B, tp 8 on 64 H100s",
                      "8,030,261,248 parameters (GQA, SwiGLU, untied)", 64, 8, 1, 1),
        llamaTraining("llama3-70b", "Llama 3 70B, tp 8 × pp 4 on 512 H100s",
                      "70,553,706,496 parameters; bubble 3/11 with 8 micro-batches", 512, 8, 4, 8),
        llama3_405b(),
        mixtral(),
        llama3_8bQlora(),
        llama3_8bLora()};
    return presets;
}

} // namespace

std::span<const SetupPreset> setupPresets() {
    return table();
}

const SetupPreset* findSetupPreset(std::string_view idOrName) {
    for (const SetupPreset& p : table())
        if (equalsIgnoringCase(p.id, idOrName) || equalsIgnoringCase(p.name, idOrName))
            return &p;
    return nullptr;
}

std::string setupPresetIds() {
    std::string ids;
    for (const SetupPreset& p : table())
        ids += (ids.empty() ? "" : ", ") + std::string(p.id);
    return ids;
}

} // namespace napkin
