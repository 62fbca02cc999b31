// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/onednn_cruncher_trainer.h"

#include "engine/accounting/frozen_layers.h"
#include "engine/compute/accounted_bf16_buffer.h"
#include "engine/compute/cpu/bf16_bits.h"
#include "engine/compute/cpu/onednn_gemm.h"
#include "engine/compute/cpu/optimizer_step.h"
#include "engine/compute/counter_normal.h"
#include "engine/compute/cruncher_checkpoint.h"
#include "engine/compute/memory_timeline_recorder.h"
#include "engine/numerics/gaussian_source.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace napkin {
namespace {

// Mixed precision widens bf16 gradients to fp32 for the optimizer this many at a time, through one
// accounted workspace buffer (a full fp32 gradient copy would be a hidden P·4 bytes).
constexpr std::size_t kUpdateChunk = 4096;

// A float view of a part of a state tensor; an optimizer without that state has an empty one.
std::span<float> part(std::span<float> s, std::size_t from, std::size_t count) {
    return s.empty() ? s : s.subspan(from, count);
}

// E: the GEMMs' element type. f32: fp32 training, the weights are the parameters. bf16: mixed precision.
template <GemmElement E> class OnednnCruncherTrainer final : public CruncherTrainer {
    static constexpr bool kMixed = E == GemmElement::bf16;
    using Working = std::conditional_t<kMixed, AccountedBf16Buffer, AccountedBuffer>;

public:
    OnednnCruncherTrainer(const CruncherConfig& config, int threads)
        : config_(config)
        , gemm_(threads, [this](double bytes) { ledger_.recordExternal(MemoryTag::scratch, bytes); }) {
        const auto d = static_cast<std::size_t>(config.dim), b = static_cast<std::size_t>(config.batch);
        GaussianSource init(config.seedInit);
        const double scale = 1.0 / std::sqrt(static_cast<double>(config.dim)); // N(0,1)/√fan_in, fan_in = D
        // Gradients, activations, temporaries and the optimizer state are made and freed during the step,
        // in PyTorch's eager order (see step()), so that the ledger's timeline is the predicted one.
        // A frozen layer (engine/accounting/frozen_layers.h) keeps its weights as stored: in mixed precision
        // bf16 alone, with no fp32 master (its draws are rounded from a short-lived copy made here).
        auto parameter = [&](std::size_t n, bool trains) {
            Tensor t{allocate(MemoryTag::parameters, n),
                     kMixed && trains ? ledger_.allocateFloats(MemoryTag::masterWeights, n)
                                      : AccountedBuffer(),
                     {},
                     {},
                     {},
                     trains};
            std::vector<float> drawn;
            std::span<float> fp32 = t.fp32();
            if (fp32.empty()) {
                drawn.resize(n);
                fp32 = drawn;
            }
            for (float& w : fp32) // the same draws, in the same order, as the Eigen trainer's
                w = static_cast<float>(init.next() * scale);
            if constexpr (kMixed)
                roundToBf16(fp32, t.weights.span());
            return t;
        };
        for (long l = 0; l < config.layers; ++l)
            layers_.push_back(parameter(d * d, layerTrains(config.frozenLayers, l + 1)));
        outputs_.resize(static_cast<std::size_t>(config.layers));
        head_ = parameter(d, true);
        batch_ = allocate(MemoryTag::inputs, b * d);
        targets_ = ledger_.allocateFloats(MemoryTag::inputs, b);
        truth_ = ledger_.allocateFloats(MemoryTag::inputs, d);
        // The fixed random linear function t = x·w*: the data seed's stream 0 (counter_normal.h).
        fillCounterNormal(truth_.data(), truth_.size(), config.seedData, kCruncherTargetStream, scale);
        if constexpr (kMixed) // the implementation's own buffer: scratch, which no formula predicts
            updateChunk_ = ledger_.allocateFloats(MemoryTag::scratch, std::min(kUpdateChunk, d * d));
        // Every primitive (and so the shared scratchpad) is made now: memory is whole before the first step,
        // and step times measure training, not oneDNN's JIT.
        for (const GemmShape& s : {layerForward(), headForward(), headBackward(), headToUpstream(),
                                   layerWeightGradient(), layerInputGradient()})
            (void)gemm_.implementation(s);
    }

    // Each event is recorded at its high-water mark (engine/accounting/memory_timeline.h): after the
    // buffers it makes exist, before the ones it used for the last time are freed. y and dL/dy are in the
    // GEMMs' type (bf16 in mixed precision), as the prediction counts them.
    double step() override {
        const long B = config_.batch, L = config_.layers;
        const auto b = static_cast<std::size_t>(B), d = static_cast<std::size_t>(config_.dim);
        recorder_.beginStep();
        drawBatch();
        recorder_.record(StepPhase::start);
        // h_l = h_{l−1}·W_l (B×D·D×D). An output that feeds a frozen layer is a temporary until it is read.
        for (long l = 0; l < L; ++l) {
            const bool kept = outputKept(config_.frozenLayers, L, l + 1);
            outputs_[idx(l)] = allocate(kept ? MemoryTag::activations : MemoryTag::workspace, b * d);
            gemm_.run(layerForward(), input(l), layers_[idx(l)].weights.data(), outputs_[idx(l)].data());
            recorder_.record(StepPhase::forward, StepPart::layer, l + 1);
            if (l > 0 && !layers_[idx(l)].trains)
                outputs_[idx(l - 1)] = {}; // h_{l−1} feeds a frozen layer: this forward was its last use
        }
        prediction_ = allocate(MemoryTag::workspace, b);
        gemm_.run(headForward(), outputs_.back().data(), head_.weights.data(),
                  prediction_.data()); // y = h_L·w
        recorder_.record(StepPhase::forward, StepPart::head);
        // MSE loss = mean((y − t)²), summed in double; dL/dy = 2·(y − t)/B.
        lossGrad_ = allocate(MemoryTag::workspace, b);
        double loss = 0;
        for (std::size_t i = 0; i < b; ++i) {
            const double r = static_cast<double>(widened(prediction_.data()[i])) - targets_.data()[i];
            loss += r * r;
            lossGrad_.data()[i] = narrowed(static_cast<float>(2.0 * r / static_cast<double>(B)));
        }
        loss /= static_cast<double>(B);
        recorder_.record(StepPhase::backward, StepPart::loss);
        prediction_ = {}; // y: dL/dy was its last use
        // Backward runs down to the lowest layer that trains (0-based here; L: the head alone): dw = h_Lᵀ·dy;
        // dh_L = dy·wᵀ; for l = L..lowest: dW_l = h_{l−1}ᵀ·dh_l where layer l trains and, above the lowest,
        // dh_{l−1} = dh_l·W_lᵀ.
        const long lowest = lowestTrainingLayer(config_.frozenLayers, L) - 1;
        head_.gradients = allocate(MemoryTag::gradients, d);
        if (lowest < L)
            upstream_ = allocate(MemoryTag::workspace, b * d);
        gemm_.run(headBackward(), outputs_.back().data(), lossGrad_.data(), head_.gradients.data());
        if (lowest < L)
            gemm_.run(headToUpstream(), lossGrad_.data(), head_.weights.data(), upstream_.data());
        recorder_.record(StepPhase::backward, StepPart::head);
        lossGrad_ = {};
        outputs_.back() = {}; // h_L: dw was its last use
        for (long l = L - 1; l >= lowest; --l) {
            const bool trains = layers_[idx(l)].trains;
            if (trains) {
                layers_[idx(l)].gradients = allocate(MemoryTag::gradients, d * d);
                gemm_.run(layerWeightGradient(), input(l), upstream_.data(),
                          layers_[idx(l)].gradients.data());
            }
            if (l > lowest) {
                downstream_ = allocate(MemoryTag::workspace, b * d);
                gemm_.run(layerInputGradient(), upstream_.data(), layers_[idx(l)].weights.data(),
                          downstream_.data());
            }
            recorder_.record(StepPhase::backward, StepPart::layer, l + 1);
            upstream_ = std::move(downstream_); // frees dh_l (and, at the lowest, leaves none)
            if (l > 0 && trains)
                outputs_[idx(l - 1)] = {}; // h_{l−1}: dW_l was its last use
        }
        ++steps_;
        createOptimizerState(); // the first update makes it, as torch.optim's Adam and momentum SGD do
        for (Tensor& t : layers_)
            if (t.trains) // a frozen layer's weights never change
                update(t);
        update(head_);
        recorder_.record(StepPhase::optimizer);
        for (Tensor* t : tensors()) // zero_grad(set_to_none=True)
            t->gradients = {};
        recorder_.record(StepPhase::zeroGrad);
        return loss;
    }

    std::vector<TimelineEvent> measuredTimeline() const override { return recorder_.lastStep(); }

    long stepsDone() const override { return steps_; }
    const MemoryLedger& ledger() const override { return ledger_; }

    std::vector<float> parameters() const override {
        std::vector<float> all;
        for (const Tensor* t : tensors()) {
            const std::span<const float> p = t->fp32();
            all.insert(all.end(), p.begin(), p.end());
            if (p.empty()) // frozen in mixed precision: the bf16 weights it trains with, widened
                for (std::size_t i = 0; i < t->weights.size(); ++i)
                    all.push_back(widened(t->weights.data()[i]));
        }
        return all;
    }

    // The format and every check are engine/compute/cruncher_checkpoint.h's, shared with every trainer.
    void saveCheckpoint(const std::string& path) const override {
        CruncherCheckpoint checkpoint;
        checkpoint.step = steps_;
        const int states = stateTensorsPerParameter(config_.optimizer);
        for (const Tensor* t : tensors()) {
            const std::span<const float> w = t->fp32();
            checkpoint.tensors.emplace_back(w.begin(), w.end());
            for (int which = 0; which < states;
                 ++which) { // before the first update: the zeros it starts from
                const std::span<const float> state = which == 0 ? t->state1.span() : t->state2.span();
                if (state.empty())
                    checkpoint.tensors.emplace_back(w.size(), 0.0f);
                else
                    checkpoint.tensors.emplace_back(state.begin(), state.end());
            }
        }
        checkpoint.dataGenerator = cruncherCheckpointGenerator(config_);
        saveCruncherCheckpoint(path, config_, checkpoint);
    }

    void loadCheckpoint(const std::string& path) override {
        // The sizes the file must hold, checked before anything changes: each weight and its states.
        const int states = stateTensorsPerParameter(config_.optimizer);
        std::vector<std::size_t> sizes;
        for (const Tensor* t : tensors())
            sizes.insert(sizes.end(), 1 + static_cast<std::size_t>(states), t->fp32().size());
        // Loaded and checked whole before any weight changes: a bad file leaves the trainer as it was.
        const CruncherCheckpoint checkpoint = loadCruncherCheckpoint(path, config_, sizes);
        createOptimizerState(); // a resumed optimizer has its state, as after load_state_dict
        std::vector<std::span<float>> into;
        for (Tensor* t : tensors())
            for (std::span<float> s : {t->fp32(), t->state1.span(), t->state2.span()})
                if (!s.empty())
                    into.push_back(s);
        for (std::size_t i = 0; i < into.size(); ++i)
            std::copy(checkpoint.tensors[i].begin(), checkpoint.tensors[i].end(), into[i].begin());
        if constexpr (kMixed)
            for (Tensor* t : tensors())
                roundToBf16(t->master.span(), t->weights.span());
        steps_ = checkpoint.step; // the data stream resumes from the step alone (counter_normal.h)
    }

private:
    // One parameter tensor with everything training keeps for it.
    struct Tensor {
        Working weights;        // what the GEMMs read (bf16 in mixed precision)
        AccountedBuffer master; // mixed precision: the fp32 weights the optimizer updates; else empty
        Working gradients;
        AccountedBuffer state1, state2; // fp32 optimizer state (empty when the optimizer has none)
        bool trains = true;             // false: a frozen layer, with no gradient, state or master
        std::span<float> fp32() {
            if constexpr (kMixed)
                return master.span();
            else
                return weights.span();
        }
        std::span<const float> fp32() const { return const_cast<Tensor*>(this)->fp32(); }
    };

    static std::size_t idx(long l) { return static_cast<std::size_t>(l); }
    // A value of the GEMMs' type as fp32, and back (rounded to nearest even in mixed precision).
    static float widened(typename std::conditional_t<kMixed, std::uint16_t, float> v) {
        if constexpr (kMixed)
            return floatFromBf16(v);
        else
            return v;
    }
    static auto narrowed(float v) {
        if constexpr (kMixed)
            return bf16FromFloat(v);
        else
            return v;
    }
    void createOptimizerState() {
        if (haveState_)
            return;
        haveState_ = true;
        const int states = stateTensorsPerParameter(config_.optimizer);
        for (Tensor* t : tensors()) { // zeros: every optimizer's state starts there; frozen: none
            if (!t->trains)
                continue;
            const std::size_t n = t->fp32().size();
            if (states > 0)
                t->state1 = ledger_.allocateFloats(MemoryTag::optimizerState, n);
            if (states > 1)
                t->state2 = ledger_.allocateFloats(MemoryTag::optimizerState, n);
        }
    }
    Working allocate(MemoryTag tag, std::size_t n) {
        if constexpr (kMixed)
            return AccountedBf16Buffer(ledger_, tag, n);
        else
            return ledger_.allocateFloats(tag, n);
    }
    const void* input(long l) const { return l == 0 ? batch_.data() : outputs_[idx(l - 1)].data(); }
    std::vector<Tensor*> tensors() {
        std::vector<Tensor*> all;
        for (Tensor& t : layers_)
            all.push_back(&t);
        all.push_back(&head_);
        return all;
    }
    std::vector<const Tensor*> tensors() const {
        const std::vector<Tensor*> all = const_cast<OnednnCruncherTrainer*>(this)->tensors();
        return {all.begin(), all.end()};
    }

    // The six GEMMs of a step, every operand row-major as stored (B×D activations, D×D weights, y = h·W).
    GemmShape layerForward() const {
        return {config_.batch, config_.dim, config_.dim, false, false, E, E, E};
    }
    GemmShape headForward() const { return {config_.batch, 1, config_.dim, false, false, E, E, E}; }
    GemmShape headBackward() const { return {config_.dim, 1, config_.batch, true, false, E, E, E}; }
    // dy (B×1) · wᵀ (1×D): the head's D×1 storage read as one row.
    GemmShape headToUpstream() const { return {config_.batch, config_.dim, 1, false, false, E, E, E}; }
    GemmShape layerWeightGradient() const {
        return {config_.dim, config_.dim, config_.batch, true, false, E, E, E};
    }
    GemmShape layerInputGradient() const {
        return {config_.batch, config_.dim, config_.dim, false, true, E, E, E};
    }

    // The batch of step s (steps_ + 1) is the data seed's stream s, the same numbers on every backend.
    void drawBatch() {
        const auto B = static_cast<std::size_t>(config_.batch), D = static_cast<std::size_t>(config_.dim);
        const std::uint64_t stream = cruncherBatchStream(steps_ + 1);
        for (std::size_t i = 0; i < B; ++i) {
            double t = 0; // t = x·w*, from x as the GEMMs see it (rounded to bf16 in mixed precision)
            for (std::size_t j = 0; j < D; ++j) {
                const auto x = static_cast<float>(counterNormal(config_.seedData, stream, i * D + j));
                float seen = x;
                if constexpr (kMixed) {
                    batch_.data()[i * D + j] = bf16FromFloat(x);
                    seen = floatFromBf16(batch_.data()[i * D + j]);
                } else {
                    batch_.data()[i * D + j] = x;
                }
                t += static_cast<double>(seen) * truth_.data()[j];
            }
            targets_.data()[i] = static_cast<float>(t);
        }
    }

    void update(Tensor& t) {
        if constexpr (!kMixed) {
            applyOptimizerStep(config_.optimizer, config_.hyper, steps_, t.weights.span(), t.gradients.span(),
                               t.state1.span(), t.state2.span());
        } else { // fp32 master and state from the bf16 gradient, then the bf16 weights rounded from the
                 // master
            const std::size_t n = t.master.size();
            for (std::size_t from = 0; from < n; from += updateChunk_.size()) {
                const std::size_t count = std::min(updateChunk_.size(), n - from);
                const std::span<float> g = updateChunk_.span().first(count);
                widenFromBf16(t.gradients.span().subspan(from, count), g);
                const std::span<float> master = t.master.span().subspan(from, count);
                applyOptimizerStep(config_.optimizer, config_.hyper, steps_, master, g,
                                   part(t.state1.span(), from, count), part(t.state2.span(), from, count));
                roundToBf16(master, t.weights.span().subspan(from, count));
            }
        }
    }

    CruncherConfig config_;
    MemoryLedger ledger_; // declared before everything it accounts for: it must outlive them
    OnednnGemm gemm_;     // its scratchpad is charged to the ledger's workspace
    std::vector<Tensor> layers_;
    Tensor head_;
    std::vector<Working> outputs_;    // activations kept for backward: outputs_[l] = h_{l+1}, B×D each
    Working batch_;                   // X (B×D)
    AccountedBuffer targets_, truth_; // t (B) and the target function w* (D), fp32
    Working prediction_, lossGrad_;   // workspace: y, dL/dy (B each)
    AccountedBuffer updateChunk_;     // mixed precision: gradients widened for the optimizer (scratch)
    Working upstream_, downstream_;   // workspace: dL/dh of the layer above and below (B×D each)
    MemoryTimelineRecorder recorder_{ledger_};
    long steps_ = 0;
    bool haveState_ = false;
};

} // namespace

std::unique_ptr<CruncherTrainer> makeOnednnCruncherTrainer(const CruncherConfig& config, int threads) {
    if (config.dim <= 0 || config.layers <= 0 || config.batch <= 0)
        throw std::invalid_argument("the Cruncher needs dim, layers and batch > 0");
    switch (config.precision) {
    case PrecisionRecipe::fp32:
        return std::make_unique<OnednnCruncherTrainer<GemmElement::f32>>(config, threads);
    case PrecisionRecipe::mixedBf16:
        return std::make_unique<OnednnCruncherTrainer<GemmElement::bf16>>(config, threads);
    case PrecisionRecipe::fp16:
    case PrecisionRecipe::bf16:
    case PrecisionRecipe::mixedFp16:
    case PrecisionRecipe::fp8Mixed:
        break;
    }
    throw std::invalid_argument("--precision " + std::string(precisionRecipeName(config.precision)) +
                                ": the onednn Cruncher trainer runs fp32 and mixed-bf16");
}

} // namespace napkin
