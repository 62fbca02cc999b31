// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bound a GEMM's max_rel_error (max |c − ref| / Σ_k|a·b| over the sampled entries) must stay within,
// per dtype and library: what decides a matmul case's `ok` (docs/cli.md, `bench matmul`). Each bound is a
// worst case of rounding alone (Higham, "Accuracy and Stability of Numerical Algorithms", §3.1: a dot
// product of length k in unit roundoff u is off by at most γ_k = k·u / (1 − k·u) times Σ|a·b|, in any
// order), so a result beyond it is wrong, not unlucky.
#include "engine/compute/benchmark_result.h"

#include <optional>
#include <string>
#include <string_view>

namespace napkin {

struct MatmulErrorBound {
    /// The bound; nullopt where the worst case is 1 or more (16-bit partial sums over a long k): then
    /// only a finite result is required.
    std::optional<double> value;
    std::string formula; ///< "γ_k(2⁻²⁴), k = 1024" and the like, for the reason a case fails
};

/// γ_k(u) = k·u / (1 − k·u); nullopt when k·u ≥ 1.
std::optional<double> gammaBound(long k, double unitRoundoff);

/// The bound for `shape` run by `library`: "onednn" or "eigen" (the CPU backend that ran the case), or
/// "cuda".
MatmulErrorBound matmulErrorBound(const MatmulCase& shape, std::string_view library);

/// Empty when `maxRelError` is finite and within `bound`, else the reason the case is not ok.
std::string matmulVerificationFailure(double maxRelError, const MatmulErrorBound& bound);

} // namespace napkin
