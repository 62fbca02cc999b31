// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the layout search answers (layout_search.h): the fastest layouts that fit, ranked by predicted
// tokens per second, each with its step time and memory; why each runner-up loses to the first; where the
// user's own layout ranks; how much work the search did; and when nothing fits, what rules the candidates
// out and which one came nearest.
#include "engine/planning/layout_choice.h"
#include "engine/steptime/step_time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace napkin {

/// How many candidates went where. considered = layoutInvalid + pruned + invalid + refusedForMemory +
/// notTimed + timed. Deterministic: the same setup gives the same counts on every machine, so a test
/// guards the search's speed by them.
struct PlanCounts {
    std::int64_t considered = 0;       ///< candidates the space holds (layout_space.h)
    std::int64_t invalid = 0;          ///< refused by the engine's validation (validate(), validateLayout())
    std::int64_t pruned = 0;           ///< skipped: their lower bound is above the K-th best (and yours)
    std::int64_t refusedForMemory = 0; ///< step peak + overheads above usable memory
    std::int64_t notTimed = 0;         ///< fit, but the step-time model cannot time them (why in refusals)
    std::int64_t timed = 0;            ///< fit and timed: the pool the ranking is drawn from
    std::int64_t boundAboveTime = 0;   ///< timed candidates whose lower bound exceeded their time: always 0
    bool operator==(const PlanCounts&) const = default;
};

/// One reason candidates were refused, with how many: "memory", a validation field ("tp", "virtual-stages")
/// or "not timed".
struct PlanRefusal {
    std::string reason;      ///< "memory", the CLI option validation names ("tp"), or "not timed"
    std::int64_t candidates = 0;
    std::string example;     ///< the first refusal's words ("must divide heads (12): …")
};

/// A timed layout's difference from the first in one part of the step: the rows of the time ledger
/// grouped by what they are (ledgerPart in plan_explanation.h).
struct LedgerDifference {
    std::string part;    ///< "backward compute", "pipeline bubble", "all-reduce … (tensor_parallel)"
    double seconds = 0;  ///< this layout's seconds in that part less the first's (positive: slower)
};

struct PlannedLayout {
    std::int64_t rank = 0; ///< 1 for the fastest
    /// The rank's upper end: `rank` when it is exact (every layout in the top K; yours whenever pruning skipped
    /// no layout whose bound is below yours), else rank + the pruned layouts that might be faster than yours.
    std::int64_t rankAtMost = 0;
    LayoutChoice choice;
    AccountingInput input; ///< the base with the choice applied: what `account` would be given
    StepTime stepTime;     ///< with its formulas and whole ledger
    double peakBytes = 0;     ///< the step's peak on the most loaded GPU
    double requiredBytes = 0; ///< the peak plus the counted overheads
    double usableBytes = 0;   ///< what `fits` compares requiredBytes with
    double slowerThanFirst = 0;           ///< seconds / first's seconds − 1 (0 for the first)
    std::string changesFromFirst;         ///< "pp 8 → 4, v 1 → 2" (empty for the first)
    std::vector<LedgerDifference> losesBy; ///< the parts that differ most from the first, largest first
    std::string stages;                    ///< uneven pipeline stages explained (plan_explanation.h); empty: even
};

/// Where the base setup's own layout stands.
enum class YourLayoutStatus {
    ranked,         ///< valid, fits and timed: `rank` among all candidates
    invalid,        ///< the engine's validation refuses it (`why`)
    doesNotFit,     ///< over usable memory (`why`)
    notTimed,       ///< the step-time model cannot time it (`why`)
    otherBatch,     ///< its global batch is not the one searched (`why`)
};

struct YourLayout {
    YourLayoutStatus status = YourLayoutStatus::invalid;
    std::string why;          ///< for every status but ranked
    /// ranked: timed with formulas; `rank` 1 + the candidates found faster, `rankAtMost` with those pruning
    /// left undecided (a bound below yours); does_not_fit: its memory
    std::optional<PlannedLayout> layout;
    bool inSpace = false;     ///< the search's space holds this very layout
};

/// When no candidate fits and is timed: the refusal that rules out the most, and the candidate that came
/// nearest to fitting (the least bytes over usable memory), if any was refused for memory alone.
struct NoFit {
    PlanRefusal mostCommon;
    std::optional<PlannedLayout> nearest; ///< no step time; requiredBytes − usableBytes is the excess
};

struct LayoutPlan {
    std::string whyNone;      ///< the space is empty, or the base is unusable: one line; else empty
    double globalBatch = 0;   ///< sequences per step over all GPUs
    double tokensPerStep = 0;
    double gpusPerNode = 0;
    std::string basis;        ///< the hardware profile's source
    bool pruning = true;
    bool cancelled = false;   ///< stopped by PlanOptions::keepGoing: the ranking of the shapes visited so far
    PlanCounts counts;
    std::vector<PlannedLayout> top;     ///< the K fastest that fit, fastest first
    std::vector<PlanRefusal> refusals;  ///< every reason, most candidates first
    YourLayout yours;
    std::optional<NoFit> noFit;         ///< set when `top` is empty
};

std::string_view yourLayoutStatusName(YourLayoutStatus status);

} // namespace napkin
