// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/onednn_matmul_problem.h"

#include "engine/compute/cpu/bf16_bits.h"
#include "engine/compute/cpu/onednn_gemm.h"
#include "engine/compute/matmul_reference.h"
#include "engine/numerics/float_format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace napkin {
namespace {

// Storage is column-major, as Eigen's (and BLAS's), with the values drawn in the same order from the same
// generator: the inputs equal Eigen's problem's. Column-major C = A·B is row-major Cᵀ = Bᵀ·Aᵀ, whose
// operands are B's and A's own storage read row-major, so oneDNN runs it with no transposes; a panel of C's
// columns is a block of Cᵀ's rows.
template <GemmElement E> class OnednnMatmulProblem final : public MatmulProblem {
public:
    using Stored = std::conditional_t<E == GemmElement::f32, float, std::uint16_t>;

    OnednnMatmulProblem(const MatmulCase& shape, std::uint64_t seed, int threads, double panelFlops)
        : m_(shape.m)
        , n_(shape.n)
        , k_(shape.k)
        , a_(static_cast<std::size_t>(shape.m * shape.k))
        , b_(static_cast<std::size_t>(shape.k * shape.n))
        , c_(static_cast<std::size_t>(shape.m * shape.n))
        , gemm_(threads) {
        const double flops =
            2.0 * static_cast<double>(m_) * static_cast<double>(n_) * static_cast<double>(k_);
        const long panels = std::max(1L, static_cast<long>(std::ceil(flops / panelFlops)));
        panelColumns_ = (n_ + panels - 1) / panels;
        implementation_ = gemm_.implementation(panelShape(panelColumns_)); // made now: not in the timing
        if (implementation_.rfind("ref", 0) == 0)
            throw std::runtime_error("oneDNN " + onednnVersion() + " has only its reference loop (" +
                                     implementation_ + ") for this case on " + onednnIsa());
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        for (Stored& x : a_)
            x = store(uniform(rng));
        for (Stored& x : b_)
            x = store(uniform(rng));
    }

    bool run(const KeepGoing& keepGoing) override {
        for (long j = 0; j < n_; j += panelColumns_) {
            const long w = std::min(panelColumns_, n_ - j);
            gemm_.run(panelShape(w), b_.data() + j * k_, a_.data(), c_.data() + j * m_);
            if (j + w < n_ && keepGoing && !keepGoing())
                return false;
        }
        return true;
    }

    double maxRelativeError(int samples, std::uint64_t seed) const override {
        const auto at = [](const std::vector<Stored>& x, long rows) {
            return [&x, rows](long i, long j) { return value(x[static_cast<std::size_t>(i + j * rows)]); };
        };
        return sampledMaxRelativeError(m_, n_, k_, at(a_, m_), at(b_, k_), at(c_, m_), samples, seed);
    }

    Snapshot snapshot() const override {
        auto copy = [](const std::vector<Stored>& x) {
            std::vector<double> v(x.size());
            std::transform(x.begin(), x.end(), v.begin(), [](Stored s) { return value(s); });
            return v;
        };
        return {copy(a_), copy(b_), copy(c_)};
    }

    Kernel kernel() const override { return {"onednn", implementation_}; }

private:
    // Eigen::bfloat16(double) and Eigen::half(double) go through float too: the same two roundings, the
    // same inputs. fp16 takes the exact codec (no hot path: only oneDNN builds with fp16 kernels run it).
    static Stored store(double v) {
        if constexpr (E == GemmElement::bf16)
            return bf16FromFloat(static_cast<float>(v));
        else if constexpr (E == GemmElement::f16)
            return static_cast<Stored>(encodeFloat(FloatFormat::fp16, static_cast<float>(v)));
        else
            return static_cast<float>(v);
    }
    static double value(Stored s) {
        if constexpr (E == GemmElement::bf16)
            return floatFromBf16(s);
        else if constexpr (E == GemmElement::f16)
            return decodeFloat(FloatFormat::fp16, s);
        else
            return s;
    }
    // Columns [j, j + w) of C: Cᵀ's rows, from Bᵀ's rows (B's columns) times Aᵀ.
    GemmShape panelShape(long w) const { return {w, m_, k_, false, false, E, E, E}; }

    long m_, n_, k_;
    std::vector<Stored> a_, b_, c_;
    OnednnGemm gemm_;
    long panelColumns_ = 1;
    std::string implementation_;
};

} // namespace

std::unique_ptr<MatmulProblem> makeOnednnMatmulProblem(const MatmulCase& shape, std::uint64_t seed,
                                                       int threads, double panelFlops) {
    switch (shape.dtype) {
    case BenchDtype::fp32:
        return std::make_unique<OnednnMatmulProblem<GemmElement::f32>>(shape, seed, threads, panelFlops);
    case BenchDtype::bf16:
        return std::make_unique<OnednnMatmulProblem<GemmElement::bf16>>(shape, seed, threads, panelFlops);
    case BenchDtype::fp16:
        return std::make_unique<OnednnMatmulProblem<GemmElement::f16>>(shape, seed, threads, panelFlops);
    case BenchDtype::fp64:
    case BenchDtype::tf32:
    case BenchDtype::fp8e4m3:
        break;
    }
    throw std::invalid_argument("--dtype " + std::string(benchDtypeName(shape.dtype)) +
                                " is not supported by the onednn backend");
}

} // namespace napkin
