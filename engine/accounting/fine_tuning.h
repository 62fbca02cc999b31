// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fine-tuning: which parameters train (all of them, or LoRA adapters on a frozen base), how the frozen
// base is stored (the recipe's dtype, or NF4 for QLoRA), and where the optimizer's state lives (the GPU,
// or the host as ZeRO-Offload keeps it).
#include "engine/models/input_error.h"
#include "engine/models/model_spec.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

enum class FineTuneMethod {
    full, ///< every parameter trains (pre-training's accounting)
    lora, ///< Hu et al. 2021: the base frozen in the recipe's dtype, rank-r adapters B·A train
    qlora ///< Dettmers et al. 2023: as LoRA with the layers' matrices in NF4 (double-quantised)
};

enum class Offload {
    none,
    optimizer,         ///< ZeRO-Offload: master weights and optimizer state on the host
    optimizerAndParams ///< also the weights: the host holds them, each layer's are streamed in
};

/// The matrices LoRA can adapt, as PEFT names their roles (q_proj, ..., down_proj).
enum class LoraTarget { q, k, v, o, gate, up, down };

struct FineTuning {
    FineTuneMethod method = FineTuneMethod::full;
    double rank = 16;  ///< r
    double alpha = 32; ///< the adapters' output is scaled by alpha / r (no memory or FLOPs of its own)
    std::vector<LoraTarget> targets{LoraTarget::q,    LoraTarget::k,  LoraTarget::v,   LoraTarget::o,
                                    LoraTarget::gate, LoraTarget::up, LoraTarget::down}; ///< "all-linear"
    Offload offload = Offload::none;
    /// Whole layers that do not train, counted from 1, ascending (frozen_layers.h): no gradient, optimizer
    /// state or master weights; the head still trains. The Cruncher only (napkin-cli bench train --freeze).
    std::vector<long> frozenLayers;
    bool operator==(const FineTuning&) const = default;
};

/// LoRA or QLoRA: a frozen base with adapters.
bool hasAdapters(const FineTuning& fineTuning);
/// Anything but full training of every layer with every state on the GPU.
bool isFineTuningSet(const FineTuning& fineTuning);
bool targets(const FineTuning& fineTuning, LoraTarget target);

/// One kind of adapted matrix of one layer: `count` matrices of in × out (every routed expert's, for a
/// mixture of experts), `activePerToken` of which a token passes through.
struct AdaptedMatrix {
    LoraTarget target = LoraTarget::q;
    std::string where; ///< "attention", "dense MLP", "routed experts", "shared expert"
    double in = 0, out = 0;
    double count = 1, activePerToken = 1;
    double layers = 0; ///< how many of the L layers have it
};

/// The matrices the targets adapt, layer kind by layer kind. A mixture of experts adapts every routed and
/// shared expert's matrices of a targeted role; the router is never adapted.
std::vector<AdaptedMatrix> adaptedMatrices(const ModelSpec& model, const FineTuning& fineTuning);

/// Adapter parameters: r·(in + out) per adapted matrix, summed.
struct AdapterCount {
    double parameters = 0;       ///< all adapters of the model
    double elementsPerToken = 0; ///< per layer: the r-wide x·A each adapted matrix a token passes keeps
    double forwardPerToken = 0;  ///< per layer (all layers summed): 2·r·(in + out) per matrix passed
    std::string formula;         ///< "L·r·Σ(in + out) = 32 × 16 × 81920 = 41,943,040"
};
AdapterCount countAdapters(const ModelSpec& model, const FineTuning& fineTuning);

/// QLoRA's NF4 storage per weight (Dettmers et al. 2023, §3 "Double Quantization"): a 4-bit code, an 8-bit
/// absmax per block of 64, an fp32 constant per 256 blocks: 0.5 + 1/64 + 4/(64·256) B.
double nf4BytesPerWeight();

/// The names napkin-cli and JSON use: "full", "lora", "qlora"; "none", "optimizer", "optimizer+params";
/// "q" ... "down".
std::string_view fineTuneMethodName(FineTuneMethod method);
std::optional<FineTuneMethod> fineTuneMethodFromName(std::string_view name);
std::span<const FineTuneMethod> allFineTuneMethods();
std::string_view offloadName(Offload offload);
std::optional<Offload> offloadFromName(std::string_view name);
std::span<const Offload> allOffloads();
std::string_view loraTargetName(LoraTarget target);
/// "q,v" or "all-linear" (PEFT's spelling) → targets in q, k, v, o, gate, up, down order; nullopt on an
/// unknown or repeated name.
std::optional<std::vector<LoraTarget>> loraTargetsFromText(std::string_view text);
/// "all-linear" when all seven, else "q,v".
std::string loraTargetsText(const std::vector<LoraTarget>& targets);

/// The fine-tuning setting against the model and layout; fields are napkin-cli's option names.
InputError validateFineTuning(const FineTuning& fineTuning, const ModelSpec& model, bool dataParallelOnly);

} // namespace napkin
