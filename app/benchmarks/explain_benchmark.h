// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "How is this computed?" for the Benchmarks page: the FLOPs of a matmul (2·m·n·k), the FLOP/s it
// achieved, and MFU = achieved FLOP/s ÷ promised peak, with a measured case substituted.
#include "engine/compute/benchmark_result.h"

#include <QString>

#include <optional>

/// The case the explanation works through: the largest successful case with a promised peak
/// (the one nearest peak), or nullptr.
const napkin::MatmulResult* exampleMatmulResult(const napkin::MatmulSweep& sweep);
/// HTML: the formulas, and `sweep`'s example case with its numbers when there is one.
QString explainBenchmarks(const std::optional<napkin::MatmulSweep>& sweep);
