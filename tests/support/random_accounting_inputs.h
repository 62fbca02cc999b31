// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Random valid accounting inputs for property tests: every model kind, recipe, optimizer, recompute
// mode, ZeRO stage and (for transformers) parallel layout, at small sizes so thousands run in seconds.
// Seeded: a failure names its case number, and the same seed gives the same cases.
#include "engine/accounting/accounting.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace napkin::test {

class RandomAccountingInputs {
public:
    explicit RandomAccountingInputs(std::uint64_t seed)
        : rng_(seed) {}

    /// The next input that validate() accepts.
    AccountingInput next() {
        for (;;) {
            AccountingInput in = draw();
            if (validate(in).ok())
                return in;
        }
    }

private:
    template <typename T> T pick(const std::vector<T>& options) {
        return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng_)];
    }
    double whole(double lo, double hi) {
        return std::floor(std::uniform_real_distribution<double>(lo, hi + 1)(rng_));
    }
    bool coin() { return std::bernoulli_distribution(0.5)(rng_); }

    void modernKnobs(ModelSpec& m) {
        if (coin())
            m.headDim = pick<double>({32, 64, 128});
        if (coin())
            m.qkvBias = coin();
        if (coin())
            m.outBias = coin();
        if (coin())
            m.mlpBias = coin();
        if (coin())
            m.normBias = coin();
        m.mlp = pick<MlpKind>({MlpKind::gelu, MlpKind::swiglu, MlpKind::geglu});
        m.normPlacement = pick<NormPlacement>({NormPlacement::pre, NormPlacement::sandwich, NormPlacement::parallel});
        m.qkNorm = pick<QkNorm>({QkNorm::none, QkNorm::head, QkNorm::whole});
        if (coin()) {
            m.slidingWindow = pick<double>({8, 64, 512});
            m.globalEvery = pick<double>({0, 2, 6});
        }
        if (coin()) { // multi-head latent attention
            m.kvLoraRank = pick<double>({32, 64});
            m.qLoraRank = pick<double>({0, 48});
            m.qkNopeHeadDim = 32;
            m.qkRopeHeadDim = 16;
            m.vHeadDim = 32;
        }
    }

    AccountingInput draw() {
        AccountingInput in;
        in.model.kind = pick<ModelKind>({ModelKind::dense, ModelKind::cruncher, ModelKind::linear2,
                                         ModelKind::transformer, ModelKind::transformer});
        ModelSpec& m = in.model;
        switch (m.kind) {
        case ModelKind::dense:
            m.parameters = pick<double>({1e6, 7e9, 70e9, 175e9, 123456789});
            break;
        case ModelKind::cruncher:
            m.dim = whole(1, 4096);
            m.layers = whole(1, 64);
            break;
        case ModelKind::linear2:
            m.dim = whole(1, 8192);
            m.out = whole(1, 4096);
            break;
        case ModelKind::transformer: {
            m.heads = pick<double>({4, 8, 12, 16});
            m.dModel = m.heads * pick<double>({16, 64, 80, 128});
            m.layers = whole(1, 24);
            m.vocab = whole(100, 60000);
            m.seq = pick<double>({16, 128, 1000, 2048});
            m.kvHeads = coin() ? 0 : m.heads / pick<double>({1, 2, 4});
            m.mlp = coin() ? MlpKind::gelu : MlpKind::swiglu;
            if (coin())
                m.ffnDim = whole(1, 8) * 64;
            m.norm = coin() ? NormKind::layernorm : NormKind::rmsnorm;
            m.bias = coin();
            m.embeddings = coin() ? EmbeddingTying::tied : EmbeddingTying::untied;
            m.position = coin() ? PositionKind::learned : PositionKind::rope;
            m.dropout = coin();
            m.attentionImpl = coin() ? AttentionImpl::eager : AttentionImpl::flash;
            if (coin()) {
                m.experts = pick<double>({2, 4, 8});
                m.topK = pick<double>({1, 2});
                if (coin()) { // DeepSeek- and Qwen-MoE-style refinements
                    m.expertFfnDim = whole(1, 4) * 64;
                    m.sharedFfnDim = coin() ? whole(1, 4) * 64 : 0;
                    m.sharedExpertGate = m.sharedFfnDim > 0 && coin();
                    m.denseLayers = std::min(m.layers - 1, whole(0, 2));
                    m.routerBias = coin();
                }
            }
            if (coin()) // today's families' knobs (Gemma, Qwen, OLMo-2, Falcon, Mistral)
                modernKnobs(m);
            break;
        }
        }
        in.batch = whole(1, 64);
        if (coin())
            in.trainingTokens = pick<double>({1e9, 3e11, 15e12});
        in.precision = pick<PrecisionRecipe>({PrecisionRecipe::fp32, PrecisionRecipe::bf16,
                                              PrecisionRecipe::mixedBf16, PrecisionRecipe::mixedFp16});
        in.fp32Gradients = in.precision == PrecisionRecipe::mixedBf16 && coin();
        in.optimizer =
            pick<OptimizerKind>({OptimizerKind::sgd, OptimizerKind::momentum, OptimizerKind::adagrad,
                                 OptimizerKind::rmsprop, OptimizerKind::adam, OptimizerKind::adamw});
        in.gpu = pick<std::string>({"H100-SXM", "A100-SXM", "H200"});
        in.mfu = pick<double>({0.3, 0.4, 0.5, 0.55});
        in.zeroStage = static_cast<int>(whole(0, 3));
        in.recompute = pick<Recompute>({Recompute::none, Recompute::selective, Recompute::full});
        in.attention = coin() ? AttentionMask::causal : AttentionMask::full;
        ParallelLayout& l = in.parallel;
        if (m.kind == ModelKind::transformer && coin()) {
            l.tp = pick<double>({1, 2, 4});
            l.pp = pick<double>({1, 2, 3});
            l.sp = l.tp > 1 && coin();
            l.microbatches = pick<double>({1, 2, 4, 8});
            if (m.attentionImpl == AttentionImpl::flash && coin())
                l.cp = 2;
        }
        in.gpus = l.tp * l.pp * l.cp * pick<double>({1, 2, 8});
        if (m.kind == ModelKind::transformer && m.experts > 1 && coin())
            l.ep = 2;
        // Fine-tuning, now and then, where it is modelled (data parallelism alone): LoRA or QLoRA on a
        // transformer with a random rank and target set, or offloading.
        if (isDataParallelOnly(l) && whole(0, 3) == 0) {
            FineTuning& ft = in.fineTuning;
            if (m.kind == ModelKind::transformer && coin()) {
                ft.method = coin() ? FineTuneMethod::lora : FineTuneMethod::qlora;
                ft.rank = pick<double>({1, 2, 4, 8});
                ft.alpha = pick<double>({8, 16, 32});
                ft.targets = pick<std::vector<LoraTarget>>(
                    {FineTuning{}.targets, {LoraTarget::q, LoraTarget::v}, {LoraTarget::k}, {LoraTarget::down},
                     {LoraTarget::o, LoraTarget::up}});
            }
            ft.offload = pick<Offload>({Offload::none, Offload::optimizer, Offload::optimizerAndParams});
        }
        return in;
    }

    std::mt19937_64 rng_;
};

} // namespace napkin::test
