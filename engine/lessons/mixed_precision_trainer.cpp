// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lessons/mixed_precision_trainer.h"

#include "engine/text/name_table.h"

#include "engine/numerics/float_format.h"
#include "engine/numerics/gaussian_source.h"

#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace napkin {
namespace {
constexpr NameTable<PrecisionLesson, 5> kPrecisionLessonKeys{
    {{PrecisionLesson::fp32, "fp32"},
     {PrecisionLesson::bf16Mixed, "bf16-mixed"},
     {PrecisionLesson::bf16Pure, "bf16-pure"},
     {PrecisionLesson::fp16NoScaling, "fp16"},
     {PrecisionLesson::fp16LossScaling, "fp16-scaled"}}};
} // namespace

namespace {

using Vec = std::vector<float>;

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h = 0xcbf29ce484222325ULL) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

FloatFormat computeFormat(PrecisionLesson recipe) {
    switch (recipe) {
    case PrecisionLesson::fp32:
        return FloatFormat::fp32;
    case PrecisionLesson::bf16Mixed:
    case PrecisionLesson::bf16Pure:
        return FloatFormat::bf16;
    case PrecisionLesson::fp16NoScaling:
    case PrecisionLesson::fp16LossScaling:
        return FloatFormat::fp16;
    }
    return FloatFormat::fp32;
}

// Uniform in [0, n) by rejection: the same sequence on every standard library.
std::uint64_t uniformBelow(std::mt19937_64& engine, std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t draw = engine();
    while (draw >= limit)
        draw = engine();
    return draw % n;
}

// One training run. Matmuls accumulate in fp32 (as tensor cores do) and round their outputs to the
// compute dtype; gradients are counted as underflowed where that fp32 value is non-zero and its
// rounding is zero.
class Run {
public:
    Run(const LessonCruncherConfig& c, PrecisionLesson recipe)
        : c_(c)
        , recipe_(recipe)
        , format_(computeFormat(recipe))
        , D_(static_cast<std::size_t>(c.dim))
        , L_(static_cast<std::size_t>(c.layers))
        , B_(static_cast<std::size_t>(c.batch))
        , N_(static_cast<std::size_t>(c.examples))
        , order_(c.seedData) {
        out_.recipe = recipe;
        makeDataset();
        makeWeights();
        order(); // the first epoch's shuffle
        out_.firstEpochOrder.assign(permutation_.begin(), permutation_.end());
        out_.gradientValuesPerStep =
            static_cast<double>(B_ + D_ + B_ * D_ + L_ * D_ * D_ + (L_ - 1) * B_ * D_);
        scale_ = recipe == PrecisionLesson::fp16LossScaling ? c.initialLossScale : 1.0;
    }

    void step();
    LessonTrainingRun& result() { return out_; }

private:
    float toCompute(double v) const {
        if (format_ == FloatFormat::fp32)
            return static_cast<float>(v);
        return static_cast<float>(decodeFloat(format_, encodeFloat(format_, v)));
    }
    // Rounds a gradient value, counting it when rounding flushed a non-zero fp32 value to zero.
    float roundGradient(float v) {
        const float r = toCompute(v);
        if (r == 0.0f && v != 0.0f)
            ++underflows_;
        if (!std::isfinite(r))
            nonFinite_ = true;
        return r;
    }
    void makeDataset();
    void makeWeights();
    void order();

    LessonCruncherConfig c_;
    PrecisionLesson recipe_;
    FloatFormat format_;
    std::size_t D_, L_, B_, N_;
    Vec inputs_, targets_;     // N×D, N
    std::vector<Vec> weights_; // L of D×D (y = x·W), fp32 master (bf16 values for bf16Pure)
    Vec head_;                 // D
    std::mt19937_64 order_;
    std::vector<std::uint32_t> permutation_;
    std::size_t cursor_ = 0; // next position in permutation_
    double scale_ = 1;
    long sinceScaleChange_ = 0;
    long underflows_ = 0;
    bool nonFinite_ = false;
    LessonTrainingRun out_;
};

void Run::makeDataset() {
    GaussianSource task(c_.seedTask);
    inputs_.resize(N_ * D_);
    for (float& x : inputs_)
        x = static_cast<float>(task.next());
    Vec truth(D_);
    const double scale = c_.targetScale / std::sqrt(static_cast<double>(D_));
    for (float& w : truth)
        w = static_cast<float>(task.next() * scale);
    targets_.resize(N_);
    for (std::size_t n = 0; n < N_; ++n) {
        double t = 0;
        for (std::size_t i = 0; i < D_; ++i)
            t += static_cast<double>(inputs_[n * D_ + i]) * truth[i];
        targets_[n] = static_cast<float>(t);
    }
    out_.datasetChecksum = fnv1a(inputs_.data(), inputs_.size() * sizeof(float));
    out_.datasetChecksum = fnv1a(targets_.data(), targets_.size() * sizeof(float), out_.datasetChecksum);
}

void Run::makeWeights() {
    GaussianSource init(c_.seedInit);
    const double scale = 1.0 / std::sqrt(static_cast<double>(D_));
    const bool pure = recipe_ == PrecisionLesson::bf16Pure;
    std::uint64_t h = 0xcbf29ce484222325ULL;
    auto draw = [&](Vec& v) {
        for (float& w : v) {
            w = static_cast<float>(init.next() * scale);
            h = fnv1a(&w, sizeof w, h);
            if (pure)
                w = toCompute(w);
        }
    };
    weights_.assign(L_, Vec(D_ * D_));
    for (Vec& w : weights_)
        draw(w);
    head_.resize(D_);
    draw(head_);
    out_.initChecksum = h;
}

void Run::order() {
    permutation_.resize(N_);
    std::iota(permutation_.begin(), permutation_.end(), 0u);
    for (std::size_t i = N_ - 1; i > 0; --i) // Fisher–Yates
        std::swap(permutation_[i], permutation_[uniformBelow(order_, i + 1)]);
    cursor_ = 0;
}

void Run::step() {
    if (cursor_ + B_ > N_)
        order(); // a new epoch: the dataset reshuffled by the data seed
    const std::size_t D = D_, B = B_, L = L_;
    // Compute copies of the weights in the compute dtype.
    std::vector<Vec> w(L, Vec(D * D));
    for (std::size_t l = 0; l < L; ++l)
        for (std::size_t k = 0; k < D * D; ++k)
            w[l][k] = toCompute(weights_[l][k]);
    Vec head(D);
    for (std::size_t i = 0; i < D; ++i)
        head[i] = toCompute(head_[i]);
    // Forward: h[0] = X (B×D), h[l] = h[l−1]·W_l, y = h[L]·w.
    std::vector<Vec> h(L + 1, Vec(B * D));
    Vec t(B);
    for (std::size_t b = 0; b < B; ++b) {
        const std::size_t n = permutation_[cursor_ + b];
        for (std::size_t i = 0; i < D; ++i)
            h[0][b * D + i] = toCompute(inputs_[n * D + i]);
        t[b] = targets_[n];
    }
    cursor_ += B;
    for (std::size_t l = 1; l <= L; ++l)
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t j = 0; j < D; ++j) {
                float acc = 0;
                for (std::size_t i = 0; i < D; ++i)
                    acc += h[l - 1][b * D + i] * w[l - 1][i * D + j];
                h[l][b * D + j] = toCompute(acc);
            }
    double loss = 0;
    Vec dy(B);
    underflows_ = 0;
    nonFinite_ = false;
    for (std::size_t b = 0; b < B; ++b) {
        float acc = 0;
        for (std::size_t i = 0; i < D; ++i)
            acc += h[L][b * D + i] * head[i];
        const double r = static_cast<double>(toCompute(acc)) - t[b];
        loss += r * r;
        // dL/dy = 2·r/B, times the loss scale (the scaled loss's gradient), stored in the compute dtype.
        dy[b] = roundGradient(static_cast<float>(2.0 * r / static_cast<double>(B) * scale_));
    }
    loss /= static_cast<double>(B);
    // Backward: dw = h_Lᵀ·dy; dh_L = dy·wᵀ; dW_l = h_{l−1}ᵀ·dh_l; dh_{l−1} = dh_l·W_lᵀ.
    Vec dHead(D), dh(B * D), dhPrev(B * D);
    std::vector<Vec> dW(L, Vec(D * D));
    for (std::size_t i = 0; i < D; ++i) {
        float acc = 0;
        for (std::size_t b = 0; b < B; ++b)
            acc += h[L][b * D + i] * dy[b];
        dHead[i] = roundGradient(acc);
    }
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t i = 0; i < D; ++i)
            dh[b * D + i] = roundGradient(dy[b] * head[i]);
    for (std::size_t l = L; l >= 1; --l) {
        for (std::size_t i = 0; i < D; ++i)
            for (std::size_t j = 0; j < D; ++j) {
                float acc = 0;
                for (std::size_t b = 0; b < B; ++b)
                    acc += h[l - 1][b * D + i] * dh[b * D + j];
                dW[l - 1][i * D + j] = roundGradient(acc);
            }
        if (l > 1) {
            for (std::size_t b = 0; b < B; ++b)
                for (std::size_t i = 0; i < D; ++i) {
                    float acc = 0;
                    for (std::size_t j = 0; j < D; ++j)
                        acc += dh[b * D + j] * w[l - 1][i * D + j];
                    dhPrev[b * D + i] = roundGradient(acc);
                }
            std::swap(dh, dhPrev);
        }
    }
    out_.losses.push_back(loss);
    out_.underflowsPerStep.push_back(underflows_);
    out_.lossScalePerStep.push_back(scale_);
    out_.underflowTotal += underflows_;
    if (recipe_ == PrecisionLesson::fp16LossScaling) {
        // GradScaler: skip a step with inf/NaN gradients and halve the scale; double it after
        // scaleGrowthInterval clean steps.
        if (nonFinite_) {
            ++out_.skippedSteps;
            scale_ *= 0.5;
            sinceScaleChange_ = 0;
            return;
        }
        if (++sinceScaleChange_ >= c_.scaleGrowthInterval) {
            scale_ *= 2;
            sinceScaleChange_ = 0;
        }
    }
    // SGD on the master weights, in fp32 after unscaling (pure bf16: the result rounded back to bf16).
    const double unscale = 1.0 / out_.lossScalePerStep.back();
    const bool pure = recipe_ == PrecisionLesson::bf16Pure;
    auto update = [&](Vec& param, const Vec& grad) {
        for (std::size_t k = 0; k < param.size(); ++k) {
            const float g = static_cast<float>(grad[k] * unscale);
            const float p = param[k] - static_cast<float>(c_.learningRate) * g;
            param[k] = pure ? toCompute(p) : p;
        }
    };
    for (std::size_t l = 0; l < L; ++l)
        update(weights_[l], dW[l]);
    update(head_, dHead);
}

} // namespace

std::string_view precisionLessonKey(PrecisionLesson recipe) {
    return nameIn(kPrecisionLessonKeys, recipe);
}

std::optional<PrecisionLesson> precisionLessonFromKey(std::string_view key) {
    return valueIn(kPrecisionLessonKeys, key);
}

std::string precisionLessonKeys() {
    return namesIn(kPrecisionLessonKeys);
}

std::string_view precisionLessonName(PrecisionLesson recipe) {
    switch (recipe) {
    case PrecisionLesson::fp32:
        return "fp32";
    case PrecisionLesson::bf16Mixed:
        return "bf16 compute, fp32 master";
    case PrecisionLesson::bf16Pure:
        return "pure bf16";
    case PrecisionLesson::fp16NoScaling:
        return "fp16, no loss scaling";
    case PrecisionLesson::fp16LossScaling:
        return "fp16 + loss scaling";
    }
    return "?";
}

LessonTrainingRun trainPrecisionLesson(const LessonCruncherConfig& config, PrecisionLesson recipe,
                                       const std::function<bool(long)>& keepGoing) {
    auto within = [](long v, long hi) { return v >= 1 && v <= hi; };
    if (!within(config.dim, 512) || !within(config.layers, 16) || !within(config.batch, 1024) ||
        !within(config.examples, 65536) || !within(config.steps, 100000))
        throw std::invalid_argument("the lesson Cruncher needs 1 ≤ D ≤ 512, 1 ≤ L ≤ 16, 1 ≤ B ≤ 1024, "
                                    "1 ≤ N ≤ 65536 and 1 ≤ steps ≤ 100000");
    if (config.examples < config.batch)
        throw std::invalid_argument("the dataset (N examples) must hold at least one batch (B)");
    if (!(config.learningRate > 0) || !std::isfinite(config.learningRate))
        throw std::invalid_argument("the learning rate must be > 0");
    if (!(config.initialLossScale > 0) || config.scaleGrowthInterval < 1)
        throw std::invalid_argument("the loss scale must be > 0 and its growth interval ≥ 1");
    Run run(config, recipe);
    for (long s = 0; s < config.steps; ++s) {
        if (keepGoing && !keepGoing(s))
            break;
        run.step();
    }
    return std::move(run.result());
}

} // namespace napkin
