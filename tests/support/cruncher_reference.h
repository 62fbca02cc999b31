// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A plain reference of the Cruncher's training step for the tests: loops in double, no Eigen, oneDNN or
// cuBLAS, the same data (engine/compute/counter_normal.h) and initial weights (GaussianSource from the init
// seed) as every trainer, and a recipe's numerics written out: every tensor the recipe stores in a 16-bit
// type is rounded to it where it is stored (the batch, the working weights rounded from the fp32 master,
// each GEMM's output, y, dL/dy, the gradients), every sum is taken in double, and the fp32 master weights
// and optimizer state are updated in double and stored as float. SGD and Adam as torch.optim writes them.
#include "engine/compute/counter_normal.h"
#include "engine/compute/cruncher_config.h"
#include "engine/numerics/gaussian_source.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace napkin::testing {

/// How a recipe stores what the GEMMs read and write: fp32, bf16 or fp16, each to nearest even.
enum class StoredAs { fp32, bf16, fp16 };

/// v rounded to float, then to `type` (round to nearest even, as every trainer rounds).
inline double storedValue(double v, StoredAs type) {
    const auto f = static_cast<float>(v);
    if (type == StoredAs::fp32)
        return f;
    if (type == StoredAs::bf16) { // keep the top 16 bits of the float, rounded to nearest even
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        if ((bits & 0x7f800000u) != 0x7f800000u) // finite
            bits += 0x7fffu + ((bits >> 16) & 1u);
        bits &= 0xffff0000u;
        float r = 0;
        std::memcpy(&r, &bits, 4);
        return r;
    }
    // fp16: 11 significant bits, normal range above 2^-14, subnormals in steps of 2^-24, overflow past 65504.
    const double a = std::fabs(static_cast<double>(f));
    if (a >= 65520.0)
        return std::copysign(INFINITY, static_cast<double>(f));
    const int exponent = a < 0x1p-14 ? -14 : std::ilogb(a);
    const double step = std::ldexp(1.0, exponent - 10);
    return std::nearbyint(static_cast<double>(f) / step) * step; // the default rounding: to nearest even
}

class CruncherReference {
public:
    CruncherReference(const CruncherConfig& config, StoredAs stored)
        : c_(config)
        , stored_(stored) {
        if (config.optimizer != OptimizerKind::sgd && config.optimizer != OptimizerKind::adam)
            throw std::invalid_argument("the reference writes out SGD and Adam");
        const auto d = static_cast<std::size_t>(config.dim);
        GaussianSource init(config.seedInit);
        const double scale = 1.0 / std::sqrt(static_cast<double>(config.dim));
        for (long l = 0; l <= config.layers; ++l) { // the layers, then the head (index L)
            std::vector<float> w(l < config.layers ? d * d : d);
            for (float& v : w)
                v = static_cast<float>(init.next() * scale);
            master_.push_back(w);
            m_.emplace_back(w.size(), 0.0f);
            v_.emplace_back(w.size(), 0.0f);
        }
        truth_.resize(d);
        for (std::size_t j = 0; j < d; ++j)
            truth_[j] = static_cast<float>(counterNormal(config.seedData, kCruncherTargetStream, j) * scale);
    }

    /// One step; returns the loss of its forward pass.
    double step() {
        const auto B = static_cast<std::size_t>(c_.batch), D = static_cast<std::size_t>(c_.dim);
        const auto L = static_cast<std::size_t>(c_.layers);
        ++steps_;
        std::vector<double> x(B * D), t(B);
        for (std::size_t i = 0; i < B * D; ++i)
            x[i] = store(counterNormal(c_.seedData, cruncherBatchStream(steps_), i));
        for (std::size_t b = 0; b < B; ++b) {
            double sum = 0;
            for (std::size_t j = 0; j < D; ++j)
                sum += x[b * D + j] * truth_[j];
            t[b] = static_cast<float>(sum);
        }
        std::vector<std::vector<double>> w(L + 1); // the working weights, rounded from the master
        for (std::size_t l = 0; l <= L; ++l)
            for (float v : master_[l])
                w[l].push_back(store(v));
        // Forward: h_l = h_{l−1}·W_l (row-major, y = x·W), y = h_L·w.
        std::vector<std::vector<double>> h{x};
        for (std::size_t l = 0; l < L; ++l)
            h.push_back(product(h[l], B, D, w[l], D, false));
        const std::vector<double> y = product(h[L], B, D, w[L], 1, false);
        double loss = 0;
        std::vector<double> dy(B);
        for (std::size_t b = 0; b < B; ++b) {
            const double r = y[b] - t[b];
            loss += r * r;
            dy[b] = store(2.0 * r / static_cast<double>(B));
        }
        // Backward: dw = h_Lᵀ·dy, dh_L = dy·wᵀ, dW_l = h_{l−1}ᵀ·dh_l, dh_{l−1} = dh_l·W_lᵀ.
        std::vector<std::vector<double>> g(L + 1);
        g[L] = transposedProduct(h[L], B, D, dy, 1);
        std::vector<double> upstream(B * D);
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t j = 0; j < D; ++j)
                upstream[b * D + j] = store(dy[b] * w[L][j]);
        for (std::size_t l = L; l-- > 0;) {
            g[l] = transposedProduct(h[l], B, D, upstream, D);
            if (l > 0)
                upstream = product(upstream, B, D, w[l], D, true);
        }
        for (std::size_t l = 0; l <= L; ++l)
            update(l, g[l]);
        return loss / static_cast<double>(B);
    }

private:
    double store(double v) const { return storedValue(v, stored_); }

    // (rows×inner)·(inner×cols), or ·Wᵀ with W inner... stored cols×inner when `transposed`; sums in double.
    std::vector<double> product(const std::vector<double>& a, std::size_t rows, std::size_t inner,
                                const std::vector<double>& m, std::size_t cols, bool transposed) const {
        std::vector<double> out(rows * cols);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t j = 0; j < cols; ++j) {
                double sum = 0;
                for (std::size_t k = 0; k < inner; ++k)
                    sum += a[r * inner + k] * (transposed ? m[j * inner + k] : m[k * cols + j]);
                out[r * cols + j] = store(sum);
            }
        return out;
    }
    // aᵀ·b for a (rows×inner) and b (rows×cols): inner×cols.
    std::vector<double> transposedProduct(const std::vector<double>& a, std::size_t rows, std::size_t inner,
                                          const std::vector<double>& b, std::size_t cols) const {
        std::vector<double> out(inner * cols);
        for (std::size_t k = 0; k < inner; ++k)
            for (std::size_t j = 0; j < cols; ++j) {
                double sum = 0;
                for (std::size_t r = 0; r < rows; ++r)
                    sum += a[r * inner + k] * b[r * cols + j];
                out[k * cols + j] = store(sum);
            }
        return out;
    }
    // torch.optim.SGD and Adam (no weight decay) on the fp32 master, in double, stored as float.
    void update(std::size_t l, const std::vector<double>& g) {
        const OptimizerHyper& hp = c_.hyper;
        for (std::size_t i = 0; i < g.size(); ++i) {
            float& p = master_[l][i];
            if (c_.optimizer == OptimizerKind::sgd) {
                p = static_cast<float>(p - hp.learningRate * g[i]);
                continue;
            }
            m_[l][i] = static_cast<float>(hp.beta1 * m_[l][i] + (1 - hp.beta1) * g[i]);
            v_[l][i] = static_cast<float>(hp.beta2 * v_[l][i] + (1 - hp.beta2) * g[i] * g[i]);
            const double mHat = m_[l][i] / (1 - std::pow(hp.beta1, static_cast<double>(steps_)));
            const double vHat = v_[l][i] / (1 - std::pow(hp.beta2, static_cast<double>(steps_)));
            p = static_cast<float>(p - hp.learningRate * mHat / (std::sqrt(vHat) + hp.eps));
        }
    }

    CruncherConfig c_;
    StoredAs stored_;
    std::vector<std::vector<float>> master_, m_, v_; // per layer then the head
    std::vector<float> truth_;
    long steps_ = 0;
};

} // namespace napkin::testing
