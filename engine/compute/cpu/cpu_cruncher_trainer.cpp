// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/cpu_cruncher_trainer.h"

#include "engine/accounting/frozen_layers.h"
#include "engine/compute/counter_normal.h"
#include "engine/compute/cpu/optimizer_step.h"
#include "engine/compute/cruncher_checkpoint.h"
#include "engine/numerics/gaussian_source.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace napkin {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixMap = Eigen::Map<RowMatrix>;
using ConstMatrixMap = Eigen::Map<const RowMatrix>;

MatrixMap asMatrix(AccountedBuffer& b, long rows, long cols) {
    return {b.data(), rows, cols};
}
ConstMatrixMap asMatrix(const AccountedBuffer& b, long rows, long cols) {
    return {b.data(), rows, cols};
}

} // namespace

CpuCruncherTrainer::CpuCruncherTrainer(const CruncherConfig& config)
    : config_(config) {
    if (config.dim <= 0 || config.layers <= 0 || config.batch <= 0)
        throw std::invalid_argument("the Cruncher needs dim, layers and batch > 0");
    const auto d = static_cast<std::size_t>(config.dim), b = static_cast<std::size_t>(config.batch);
    const auto layers = static_cast<std::size_t>(config.layers);
    GaussianSource init(config.seedInit);
    const double scale = 1.0 / std::sqrt(static_cast<double>(config.dim)); // N(0,1)/√fan_in, fan_in = D
    for (std::size_t l = 0; l < layers; ++l) {
        weights_.push_back(ledger_.allocateFloats(MemoryTag::parameters, d * d));
        for (float& w : weights_.back().span())
            w = static_cast<float>(init.next() * scale);
    }
    weightGrads_.resize(layers);
    state1_.resize(layers);
    state2_.resize(layers);
    outputs_.resize(layers);
    head_ = ledger_.allocateFloats(MemoryTag::parameters, d);
    for (float& w : head_.span())
        w = static_cast<float>(init.next() * scale);
    batch_ = ledger_.allocateFloats(MemoryTag::inputs, b * d);
    targets_ = ledger_.allocateFloats(MemoryTag::inputs, b);
    truth_ = ledger_.allocateFloats(MemoryTag::inputs, d);
    // The fixed random linear function t = x·w*: the data seed's stream 0 (counter_normal.h).
    fillCounterNormal(truth_.data(), truth_.size(), config.seedData, kCruncherTargetStream, scale);
}

bool CpuCruncherTrainer::trains(std::size_t layer) const {
    return layerTrains(config_.frozenLayers, static_cast<long>(layer) + 1);
}

void CpuCruncherTrainer::createOptimizerState() {
    if (haveState_)
        return;
    haveState_ = true;
    const auto d = static_cast<std::size_t>(config_.dim);
    const int states = stateTensorsPerParameter(config_.optimizer);
    auto stateOf = [&](int which, std::size_t n) { // zeros: every optimizer's state starts there
        return states > which ? ledger_.allocateFloats(MemoryTag::optimizerState, n) : AccountedBuffer();
    };
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        if (!trains(l))
            continue; // a frozen layer has no state
        state1_[l] = stateOf(0, d * d);
        state2_[l] = stateOf(1, d * d);
    }
    headState1_ = stateOf(0, d);
    headState2_ = stateOf(1, d);
}

// The batch of step s (steps_ + 1) is the data seed's stream s: the same numbers on every backend.
void CpuCruncherTrainer::drawBatch() {
    fillCounterNormal(batch_.data(), batch_.size(), config_.seedData, cruncherBatchStream(steps_ + 1));
    const long B = config_.batch, D = config_.dim;
    Eigen::Map<Eigen::VectorXf>(targets_.data(), B).noalias() =
        asMatrix(std::as_const(batch_), B, D) * Eigen::Map<const Eigen::VectorXf>(truth_.data(), D);
}

// Each event is recorded at its high-water mark (engine/accounting/memory_timeline.h): after the
// buffers it makes exist, before the ones it used for the last time are freed.
double CpuCruncherTrainer::step() {
    recorder_.beginStep();
    drawBatch();
    recorder_.record(StepPhase::start);
    const double loss = forwardAndLoss();
    backward();
    ++steps_;
    optimizerStep();
    return loss;
}

double CpuCruncherTrainer::forwardAndLoss() {
    const long B = config_.batch, D = config_.dim, L = config_.layers;
    const auto bd = static_cast<std::size_t>(B * D);
    // h_0 = X, h_l = h_{l−1}·W_l (B×D·D×D), y = h_L·w (B×D·D×1).
    // An output that no backward needs (it feeds a frozen layer) is a temporary until that layer has read it.
    for (long l = 0; l < L; ++l) {
        const auto li = static_cast<std::size_t>(l);
        const bool kept = outputKept(config_.frozenLayers, L, l + 1);
        outputs_[li] =
            ledger_.allocateFloatsForOverwrite(kept ? MemoryTag::activations : MemoryTag::workspace, bd);
        const AccountedBuffer& in = l == 0 ? batch_ : outputs_[li - 1];
        asMatrix(outputs_[li], B, D).noalias() =
            asMatrix(in, B, D) * asMatrix(std::as_const(weights_[li]), D, D);
        recorder_.record(StepPhase::forward, StepPart::layer, l + 1);
        if (l > 0 && !trains(li))
            outputs_[li - 1] = {}; // h_l−1 feeds a frozen layer: this forward was its last use
    }
    prediction_ = ledger_.allocateFloatsForOverwrite(MemoryTag::workspace, static_cast<std::size_t>(B));
    const ConstMatrixMap last = asMatrix(std::as_const(outputs_.back()), B, D);
    Eigen::Map<Eigen::VectorXf> y(prediction_.data(), B);
    y.noalias() = last * Eigen::Map<const Eigen::VectorXf>(head_.data(), D);
    recorder_.record(StepPhase::forward, StepPart::head);
    // MSE loss = mean((y − t)²), summed in double; dL/dy = 2·(y − t)/B (the loss's backward).
    lossGrad_ = ledger_.allocateFloatsForOverwrite(MemoryTag::workspace, static_cast<std::size_t>(B));
    Eigen::Map<Eigen::VectorXf> dy(lossGrad_.data(), B);
    const Eigen::Map<const Eigen::VectorXf> t(targets_.data(), B);
    double loss = 0;
    for (long i = 0; i < B; ++i) {
        const double r = static_cast<double>(y[i]) - t[i];
        loss += r * r;
        dy[i] = static_cast<float>(2.0 * r / static_cast<double>(B));
    }
    loss /= static_cast<double>(B);
    recorder_.record(StepPhase::backward, StepPart::loss);
    prediction_ = {}; // y: dL/dy was its last use
    return loss;
}

void CpuCruncherTrainer::backward() {
    const long B = config_.batch, D = config_.dim, L = config_.layers;
    const auto d = static_cast<std::size_t>(D), bd = static_cast<std::size_t>(B * D);
    // Backward runs down to the lowest layer that trains (engine/accounting/frozen_layers.h); the head
    // always trains. Head: dw = h_Lᵀ·dy (D×B·B×1); dh_L = dy·wᵀ (B×1·1×D) when a layer trains.
    const long lowest = lowestTrainingLayer(config_.frozenLayers, L) - 1; // 0-based; L: the head alone
    headGrad_ = ledger_.allocateFloatsForOverwrite(MemoryTag::gradients, d);
    if (lowest < L)
        upstream_ = ledger_.allocateFloatsForOverwrite(MemoryTag::workspace, bd);
    {
        const ConstMatrixMap last = asMatrix(std::as_const(outputs_.back()), B, D);
        Eigen::Map<Eigen::VectorXf> dy(lossGrad_.data(), B);
        Eigen::Map<Eigen::VectorXf>(headGrad_.data(), D).noalias() = last.transpose() * dy;
        if (lowest < L)
            asMatrix(upstream_, B, D).noalias() = dy * Eigen::Map<const Eigen::RowVectorXf>(head_.data(), D);
    }
    recorder_.record(StepPhase::backward, StepPart::head);
    lossGrad_ = {};
    outputs_.back() = {}; // h_L: dw was its last use
    // For l = L..lowest: dW_l = h_{l−1}ᵀ·dh_l (D×B·B×D) where layer l trains; dh_{l−1} = dh_l·W_lᵀ
    // (B×D·D×D) above the lowest layer that trains.
    for (long l = L - 1; l >= lowest; --l) {
        const auto li = static_cast<std::size_t>(l);
        if (trains(li)) {
            weightGrads_[li] = ledger_.allocateFloatsForOverwrite(MemoryTag::gradients, d * d);
            const AccountedBuffer& in = l == 0 ? batch_ : outputs_[li - 1];
            asMatrix(weightGrads_[li], D, D).noalias() =
                asMatrix(in, B, D).transpose() * asMatrix(std::as_const(upstream_), B, D);
        }
        if (l > lowest) {
            downstream_ = ledger_.allocateFloatsForOverwrite(MemoryTag::workspace, bd);
            asMatrix(downstream_, B, D).noalias() = asMatrix(std::as_const(upstream_), B, D) *
                                                    asMatrix(std::as_const(weights_[li]), D, D).transpose();
        }
        recorder_.record(StepPhase::backward, StepPart::layer, l + 1);
        upstream_ = std::move(downstream_); // frees dh_l (and, at the lowest, leaves none)
        if (l > 0 && trains(li))
            outputs_[li - 1] = {}; // h_{l−1}: dW_l was its last use
    }
}

void CpuCruncherTrainer::optimizerStep() {
    createOptimizerState(); // the first update makes it, as torch.optim's Adam and momentum SGD do
    for (std::size_t l = 0; l < weights_.size(); ++l)
        if (trains(l)) // a frozen layer's weights never change
            applyOptimizerStep(config_.optimizer, config_.hyper, steps_, weights_[l].span(),
                               weightGrads_[l].span(), state1_[l].span(), state2_[l].span());
    applyOptimizerStep(config_.optimizer, config_.hyper, steps_, head_.span(), headGrad_.span(),
                       headState1_.span(), headState2_.span());
    recorder_.record(StepPhase::optimizer);
    for (AccountedBuffer& g : weightGrads_) // zero_grad(set_to_none=True)
        g = {};
    headGrad_ = {};
    recorder_.record(StepPhase::zeroGrad);
}

std::vector<AccountedBuffer*> CpuCruncherTrainer::parameterTensors() {
    std::vector<AccountedBuffer*> all;
    for (std::size_t l = 0; l < weights_.size(); ++l)
        all.insert(all.end(), {&weights_[l], &state1_[l], &state2_[l]});
    all.insert(all.end(), {&head_, &headState1_, &headState2_});
    return all;
}

std::vector<const AccountedBuffer*> CpuCruncherTrainer::parameterTensors() const {
    auto mutableSelf = const_cast<CpuCruncherTrainer*>(this)->parameterTensors();
    return {mutableSelf.begin(), mutableSelf.end()};
}

std::vector<float> CpuCruncherTrainer::parameters() const {
    std::vector<float> all;
    for (const AccountedBuffer& w : weights_)
        all.insert(all.end(), w.data(), w.data() + w.size());
    all.insert(all.end(), head_.data(), head_.data() + head_.size());
    return all;
}

/// Per layer then the head: parameters, state 1, state 2 (0 for a state the optimizer does not keep).
std::vector<std::size_t> CpuCruncherTrainer::checkpointSizes() const {
    const int states = stateTensorsPerParameter(config_.optimizer);
    std::vector<std::size_t> sizes;
    auto add = [&](std::size_t n) { sizes.insert(sizes.end(), {n, states > 0 ? n : 0, states > 1 ? n : 0}); };
    for (const AccountedBuffer& w : weights_)
        add(w.size());
    add(head_.size());
    return sizes;
}

// The format and every check are engine/compute/cruncher_checkpoint.h's, shared with the CUDA trainer.
void CpuCruncherTrainer::saveCheckpoint(const std::string& path) const {
    CruncherCheckpoint checkpoint;
    checkpoint.step = steps_;
    const std::vector<std::size_t> sizes = checkpointSizes();
    const std::vector<const AccountedBuffer*> tensors = parameterTensors();
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (tensors[i]->size() == sizes[i])
            checkpoint.tensors.emplace_back(tensors[i]->data(), tensors[i]->data() + tensors[i]->size());
        else // optimizer state before the first update: the zeros it will start from
            checkpoint.tensors.emplace_back(sizes[i], 0.0f);
    }
    checkpoint.dataGenerator = cruncherCheckpointGenerator(config_);
    saveCruncherCheckpoint(path, config_, checkpoint);
}

void CpuCruncherTrainer::loadCheckpoint(const std::string& path) {
    // Loaded and checked whole before any weight changes: a bad file leaves the trainer as it was.
    const CruncherCheckpoint checkpoint = loadCruncherCheckpoint(path, config_, checkpointSizes());
    createOptimizerState(); // a resumed optimizer has its state, as after load_state_dict
    const std::vector<AccountedBuffer*> tensors = parameterTensors();
    for (std::size_t i = 0; i < tensors.size(); ++i)
        std::copy(checkpoint.tensors[i].begin(), checkpoint.tensors[i].end(), tensors[i]->data());
    steps_ = checkpoint.step; // the data stream resumes from the step alone (counter_normal.h)
}

} // namespace napkin
