// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/eigen_matmul_problem.h"

#include "engine/compute/matmul_reference.h"

#include <Eigen/Core>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace napkin {
namespace {

template <typename Scalar> class EigenMatmulProblem final : public MatmulProblem {
public:
    using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>; // column-major, as BLAS

    EigenMatmulProblem(const MatmulCase& shape, std::uint64_t seed)
        : a_(shape.m, shape.k)
        , b_(shape.k, shape.n)
        , c_(shape.m, shape.n) {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        for (Eigen::Index i = 0; i < a_.size(); ++i)
            a_.data()[i] = static_cast<Scalar>(uniform(rng));
        for (Eigen::Index i = 0; i < b_.size(); ++i)
            b_.data()[i] = static_cast<Scalar>(uniform(rng));
        c_.setZero();
        // Column panels small enough that a cancel is noticed within a fraction of a second: about
        // 4 GFLOP per panel for float/double (30-150 GFLOP/s here), 0.1 GFLOP for bfloat16 (20 GFLOP/s;
        // 10 MFLOP panels cut it to 0.5 GFLOP/s with two OpenMP threads on a loaded machine, each panel
        // waiting for the descheduled thread) and 10 MFLOP for half (0.2 GFLOP/s: no fast path).
        const double panelFlops = std::is_same_v<Scalar, Eigen::half>       ? 1e7
                                  : std::is_same_v<Scalar, Eigen::bfloat16> ? 1e8
                                                                            : 4e9;
        const double columnFlops = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.k);
        panelColumns_ =
            std::clamp<Eigen::Index>(static_cast<Eigen::Index>(panelFlops / std::max(1.0, columnFlops)), 16,
                                     std::max<Eigen::Index>(16, shape.n));
    }

    bool run(const KeepGoing& keepGoing) override {
        const Eigen::Index n = c_.cols();
        for (Eigen::Index j = 0; j < n; j += panelColumns_) {
            const Eigen::Index w = std::min(panelColumns_, n - j);
            c_.middleCols(j, w).noalias() = a_ * b_.middleCols(j, w);
            if (j + w < n && keepGoing && !keepGoing())
                return false;
        }
        return true;
    }

    double maxRelativeError(int samples, std::uint64_t seed) const override {
        const auto at = [](const Matrix& x) {
            return [&x](long i, long j) { return static_cast<double>(x(i, j)); };
        };
        return sampledMaxRelativeError(c_.rows(), c_.cols(), a_.cols(), at(a_), at(b_), at(c_), samples,
                                       seed);
    }

    Kernel kernel() const override { return {"eigen", std::string("eigen:") + scalarName()}; }

    Snapshot snapshot() const override {
        auto copy = [](const Matrix& m) {
            std::vector<double> v(static_cast<std::size_t>(m.size()));
            for (Eigen::Index i = 0; i < m.size(); ++i)
                v[static_cast<std::size_t>(i)] = static_cast<double>(m.data()[i]);
            return v;
        };
        return {copy(a_), copy(b_), copy(c_)};
    }

private:
    static constexpr const char* scalarName() {
        if constexpr (std::is_same_v<Scalar, float>)
            return "float";
        else if constexpr (std::is_same_v<Scalar, double>)
            return "double";
        else if constexpr (std::is_same_v<Scalar, Eigen::bfloat16>)
            return "bfloat16 (fp32 arithmetic, every partial sum rounded to bf16)";
        else
            return "half (fp32 arithmetic, every partial sum rounded to fp16)";
    }

    Matrix a_, b_, c_;
    Eigen::Index panelColumns_ = 16;
};

} // namespace

std::unique_ptr<MatmulProblem> makeEigenMatmulProblem(const MatmulCase& shape, std::uint64_t seed) {
    switch (shape.dtype) {
    case BenchDtype::fp32:
        return std::make_unique<EigenMatmulProblem<float>>(shape, seed);
    case BenchDtype::fp64:
        return std::make_unique<EigenMatmulProblem<double>>(shape, seed);
    case BenchDtype::bf16:
        return std::make_unique<EigenMatmulProblem<Eigen::bfloat16>>(shape, seed);
    case BenchDtype::fp16:
        return std::make_unique<EigenMatmulProblem<Eigen::half>>(shape, seed);
    case BenchDtype::tf32:
    case BenchDtype::fp8e4m3:
        break;
    }
    throw std::invalid_argument("--dtype " + std::string(benchDtypeName(shape.dtype)) +
                                " is not supported on the cpu backend");
}

} // namespace napkin
