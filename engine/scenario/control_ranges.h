// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The range of every numeric control of every page, in one table: the page gives its control this
// range, and the scenario loader refuses a value outside it, so a saved file always opens as it was
// saved (never clamped by a control that cannot show it). The defaults live in scenario.h's structs.
#include "engine/numerics/control_range.h"

namespace napkin::ranges {

/// Seed boxes everywhere (the lessons' and the Training tab's).
inline constexpr ControlRange seed{0, 1e6};

namespace accounting {
inline constexpr ControlRange parameters{1, 1e15}; ///< validation's: what napkin-cli accounts, a file keeps
inline constexpr ControlRange dim{1, 1e7};
inline constexpr ControlRange layers{1, 1e5};
inline constexpr ControlRange out{1, 1e7};
inline constexpr ControlRange dModel{1, 1e6};
inline constexpr ControlRange heads{1, 1e5};
inline constexpr ControlRange vocab{1, 1e8};
inline constexpr ControlRange seq{1, 1e8};
/// Validation's (0, 64] with a whole MLP width, so at least 1/d ≥ 1e-6: what napkin-cli accounts, a file keeps
inline constexpr ControlRange ffnMult{1e-6, 64};
inline constexpr ControlRange batch{1, 1e9};
inline constexpr ControlRange trainingTokens{1e6, 1e14};
inline constexpr ControlRange gpus{1, 1e7};
inline constexpr ControlRange mfu{0.01, 1};
inline constexpr ControlRange zeroStage{0, 3};
inline constexpr ControlRange kvHeads{0, 1e5}; ///< 0: as many as the heads (no grouped-query attention)
inline constexpr ControlRange ffnDim{0, 1e7};  ///< 0: the FFN multiple × d
inline constexpr ControlRange experts{1, 1024};
// What today's families add (0 everywhere: the knob is off, or follows the other fields).
inline constexpr ControlRange headDim{0, 1e5};       ///< 0: d / heads
inline constexpr ControlRange slidingWindow{0, 1e8}; ///< 0: every layer attends to the whole context
inline constexpr ControlRange globalEvery{0, 1e5};   ///< 0: every layer windowed (with a window)
inline constexpr ControlRange latentRank{0, 1e5};    ///< MLA's ranks and head widths; kv_lora_rank 0: no MLA
inline constexpr ControlRange expertFfnDim{0, 1e7};  ///< 0: the dense width
inline constexpr ControlRange sharedFfnDim{0, 1e7};  ///< 0: no shared expert
inline constexpr ControlRange denseLayers{0, 1e5};
inline constexpr ControlRange topK{1, 1024};
// The parallel layout's sizes are their table's (engine/accounting/parallel_layout_knobs.h).
inline constexpr ControlRange loraRank{1, 65536};
inline constexpr ControlRange loraAlpha{0.001, 1e6};
} // namespace accounting

namespace benchmarks {
inline constexpr ControlRange dim{1, 8192};
inline constexpr ControlRange layers{1, 256};
inline constexpr ControlRange batch{1, 65536};
inline constexpr ControlRange steps{1, 100000};
} // namespace benchmarks

namespace training {
inline constexpr ControlRange initDim{4, 2048}; ///< powers of two only (a slider of exponents)
inline constexpr ControlRange initLayers{1, 64};
inline constexpr ControlRange determinismSteps{10, 2000};
inline constexpr ControlRange demoMegabytes{1, 4000};
inline constexpr ControlRange dataBatch{1, 512};
inline constexpr ControlRange dataContext{1, 8192};
inline constexpr ControlRange dataBatches{1, 10000};
inline constexpr ControlRange mixedPrecisionSteps{10, 5000};
} // namespace training

} // namespace napkin::ranges
