// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The napkin math of serving a transformer: weights at 32 to 4 bits, the KV cache, memory per GPU,
// prefill and decode time as roofline lower bounds, and the largest batch and context that fit.
// Pure functions of plain structs; the fields are napkin-cli infer's (docs/cli.md, "napkin-cli infer").
#include "engine/models/input_error.h"
#include "engine/accounting/memory_overheads.h"
#include "engine/models/model_spec.h"
#include "engine/accounting/model_state_memory.h"
#include "engine/models/weight_format.h"
#include "engine/hardware/gpu_catalog.h"

#include <optional>
#include <span>
#include <string>

namespace napkin {

struct InferenceInput {
    ModelSpec model;              ///< kind transformer
    double batch = 1;             ///< B sequences decoded together
    double context = 0;           ///< S tokens in each sequence's KV cache
    std::optional<double> prompt; ///< P tokens prefilled per sequence; unset: P = S
    WeightFormat weights = WeightFormat::bf16;
    double groupSize = 128; ///< G weights per fp16 scale (int8, int4)
    /// Only the routed experts' matrices are in `weights`, the rest 16-bit (gpt-oss's MXFP4 checkpoint,
    /// whose quantization_config leaves attention, router, embeddings and head unconverted).
    bool expertsOnly = false;
    StorageType kvCache = StorageType::bf16;
    std::string gpu = "H100-SXM";
    double gpus = 1; ///< N GPUs, all tensor parallel
    /// Dollars per GPU-hour (the same price as training's, run_cost.h); unset: no cost per token.
    std::optional<double> pricePerGpuHour;
    /// What "fits" is judged against and which overhead lines count (inference_overheads.h): usable
    /// memory with the overheads by default, as training; datasheetOverheads() for the datasheet's figure
    /// and none (a scenario saved before the ledger reads so).
    MemoryOverheadSettings overheads;
    bool operator==(const InferenceInput&) const = default;
};

struct InferenceMemory {
    Quantity weights, kvCache, activations, total; ///< per GPU
};

struct InferenceResult {
    double parameters = 0;          ///< every parameter (countParameters().total)
    double quantizedParameters = 0; ///< Q: the layers' matmul weights, stored in the weight format
    double otherParameters =
        0;                 ///< R: embeddings, output head, router, norms, biases (16-bit; fp32 under fp32)
    Quantity weightsBytes; ///< the whole model, all GPUs together
    Quantity kvCacheBytesPerToken; ///< 2·L·g·(d/a)·bytes, one token of one sequence
    Quantity kvCacheBytes;         ///< B·S tokens, all GPUs together
    InferenceMemory memory;        ///< per GPU
    Quantity capacityBytes;        ///< the GPU's datasheet memory
    MemoryOverheads overheads;     ///< the serving overhead ledger (inference_overheads.h)
    Quantity usableBytes;          ///< what fits is judged against: the datasheet's, or the driver's
    Quantity predictedBytes;       ///< memory.total + the counted overhead lines
    bool fits = false;             ///< predictedBytes ≤ usableBytes
    std::string fitsFormula;       ///< "total 1.6e10 B + overheads 6.9e7 B = 1.607e10 B ≤ 8.552e10 B usable"
    Quantity peakFlopsPerSecond;      ///< dense peak of one GPU in the weight format's arithmetic
    Quantity bandwidthBytesPerSecond; ///< datasheet memory bandwidth of one GPU
    Quantity prefillFlops;            ///< B sequences of P tokens, all GPUs together
    Quantity prefillSeconds;          ///< roofline lower bound
    Quantity prefillBytes; ///< the weights prefill reads (min(E, B·P·K) experts), all GPUs: its bytes term
    Quantity decodeFlopsPerToken;   ///< one new token of one sequence with S tokens cached
    Quantity decodeStepFlops;       ///< B × decodeFlopsPerToken: one step of the whole batch
    Quantity expertsReadPerStep;    ///< MoE: experts per layer one step reads; E (all) when dense
    Quantity decodeBytesPerToken;   ///< bytes one decode step of the whole batch reads, all GPUs
    Quantity decodeSecondsPerToken; ///< one decode step of the batch: max(FLOPs/peak, bytes/bandwidth)
    Quantity decodeTokensPerSecond; ///< B / decodeSecondsPerToken
    Quantity arithmeticIntensity;   ///< decode FLOPs per byte
    Quantity ridgeFlopsPerByte;     ///< peak / bandwidth
    /// The setting's two points on its GPU's roofline (the Roofline page draws them as they are):
    /// decode at arithmeticIntensity and decodeStepFlops / (N · decodeSecondsPerToken); prefill at
    /// prefillFlops / prefillBytes and prefillFlops / (N · prefillSeconds). Lower bounds on time, so each
    /// sits on the roof.
    Quantity decodeFlopsPerSecondPerGpu;
    Quantity prefillArithmeticIntensity;
    Quantity prefillFlopsPerSecondPerGpu;
    std::string bound;              ///< "memory" or "compute"
    /// Largest B that fits (0: not even one sequence), and the largest S at this batch: against
    /// M = (usable − fixed overheads) / (1 + fragmentation), the datasheet's capacity in its basis.
    Quantity maxBatch;
    Quantity maxContext;
};

/// The element types a KV cache can be stored in: fp32, bf16, fp16, fp8.
std::span<const StorageType> kvCacheTypes();

/// Checks every input: the model as `account` does, then batch, context, prompt (≤ context), group
/// size (dividing d-model), gpus (dividing heads and kv-heads), the GPU and its peak in the weights'
/// arithmetic. Fields are napkin-cli infer's option names ("context", "group-size", "gpus", ...).
InputError validateInference(const InferenceInput& input, const GpuCatalog& catalog = GpuCatalog::builtIn());

/// The whole inference accounting. Precondition: validateInference(input).ok(), `gpu` the input's GPU.
InferenceResult accountInference(const InferenceInput& input, const GpuSpec& gpu);

} // namespace napkin
