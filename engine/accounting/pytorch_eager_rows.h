// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The row builder the pytorch-eager ledgers (GPT-2-style in pytorch_eager_ledger.cpp, Llama-style in
// pytorch_eager_llama.cpp, Mixtral's experts in pytorch_eager_moe.cpp, LoRA in pytorch_eager_lora.cpp)
// write their saved tensors with, and the norms' statistics they share.
#include "engine/accounting/activation_ledger.h"

#include <string>
#include <utility>
#include <vector>

namespace napkin::eager {

constexpr double kFp32Bytes = 4, kInt64Bytes = 8, kDoubleBytes = 8, kBoolBytes = 1;

struct Rows {
    std::vector<ActivationTensor> rows;
    double act = 4;
    std::string actName;

    explicit Rows(StorageType activations)
        : act(bytesPerElement(activations))
        , actName(storageTypeName(activations)) {}

    void tensor(std::string name, std::string savedFor, double perToken,
                ActivationSplit split = ActivationSplit::sequence, bool scores = false) {
        rows.push_back({std::move(name), std::move(savedFor), perToken, act, actName, split, scores, 0});
    }
    void fp32(std::string name, std::string savedFor, double perToken,
              ActivationSplit split = ActivationSplit::sequence, bool scores = false) {
        rows.push_back(
            {std::move(name), std::move(savedFor), perToken, kFp32Bytes, "fp32", split, scores, 0});
    }
    // Per token in a dtype of its own (int64 indices).
    void typed(std::string name, std::string savedFor, double perToken, double bytes, std::string dtype) {
        rows.push_back({std::move(name), std::move(savedFor), perToken, bytes, std::move(dtype),
                        ActivationSplit::sequence, false, 0});
    }
    // torch.bool on CUDA: native_dropout returns its mask as bool (the CPU's dropout keeps the scaled
    // mask in the activations' dtype instead; docs/validation.md).
    void mask(std::string name, double perToken, bool scores = false) {
        rows.push_back({std::move(name), "dropout backward", perToken, kBoolBytes, "mask",
                        ActivationSplit::sequence, scores, 0});
    }
    // A tensor every expert keeps for the tokens routed to it: `perSlot` elements for each of a token's
    // `slots` (top-k) routed copies, summed over the experts (ActivationTensor::routed).
    void routed(std::string name, std::string savedFor, double perSlot, double slots, double bytes,
                std::string dtype) {
        rows.push_back({std::move(name), std::move(savedFor), perSlot * slots, bytes, std::move(dtype),
                        ActivationSplit::sequence, false, 0, true});
    }
    void fixed(std::string name, std::string savedFor, double elements, double bytes, std::string dtype) {
        rows.push_back({std::move(name), std::move(savedFor), 0, bytes, std::move(dtype),
                        ActivationSplit::sequence, false, elements});
    }
    // LayerNorm keeps its per-token mean and 1/σ in the accumulation type, fp32 (its input is a row of
    // the caller's: it is kept whether or not the weight trains).
    void layerNormStatistics(const std::string& norm) {
        fp32(norm + " mean and 1/σ", "LayerNorm's backward", 2);
    }
    // LlamaRMSNorm (x = input.float(); x.pow(2).mean(-1); x · rsqrt) keeps these for dL/dx: its fp32 input
    // (in bf16 the upcast copy, and nothing keeps the bf16 input), the input² and 1/rms per token.
    void rmsNormStatistics(const std::string& norm, double h) {
        fp32(norm + " input in fp32 (bf16: the upcast copy)", "pow's and the normalising mul's backward", h);
        fp32(norm + " input² (x.pow(2))", "mean's backward (torch 1.13 keeps its whole input)", h);
        fp32(norm + " 1/rms (rsqrt)", "rsqrt's and the normalising mul's backward", 1);
    }
};

} // namespace napkin::eager
