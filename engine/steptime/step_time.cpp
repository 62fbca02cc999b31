// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/steptime/step_time.h"

#include "engine/text/ascii_case.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/steptime/published_profiles.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

std::string secondsText(double s) {
    return n(s) + " s";
}

// Seconds per phase of the compute rows (ops and their overhead), for the bubble and the overlap.
struct PhaseSeconds {
    std::array<double, 6> seconds{};
    std::array<double, 6> launches{};
    double& of(StepTimePhase p) { return seconds[static_cast<std::size_t>(p)]; }
};

} // namespace

StepTimeRow costStepOp(const StepOp& op, const HardwareProfile& profile, const StepOpList& list,
                       StorageType streamed) {
    const ComputeType dtype = list.dtype;
    // Inside a search's ValuesOnly scope (formula_text.h) the rows carry their numbers alone.
    const bool texts = formulasWanted();
    StepTimeRow row;
    if (texts)
        row.name = op.name + " " + op.shape + (op.count != 1 ? " × " + n(op.count) : std::string());
    row.phase = op.phase;
    row.flops = op.flops * op.count;
    row.bytes = op.bytes * op.count;
    // The update at the rate measured for it when the profile has one (torch's own optimizer step timed
    // whole: its in-place ops stream faster than the calibration's out-of-place add, its out-of-place sqrt
    // and div slower), else at the activations' elementwise rate.
    const double updateRate =
        op.optimizerUpdate ? updateBytesPerSecond(profile, list.optimizer, list.optimizerImplementation,
                                                  list.updateDtype, list.updateElements)
                           : 0;
    const double bandwidth = updateRate > 0 ? updateRate : memoryBytesPerSecond(profile, streamed);
    const double memorySeconds = op.bytes / bandwidth;
    if (!op.gemm) {
        row.kind = StepTimeKind::memory;
        row.seconds = op.count * memorySeconds;
        if (texts)
            row.formula = "B / BW × count = " + n(op.bytes) + " B / " + n(bandwidth) + " B/s × " +
                          n(op.count) + " = " + secondsText(row.seconds) +
                          (updateRate > 0 ? ", BW the profile's rate for this update timed whole" : "");
        return row;
    }
    row.m = op.m;
    row.n = op.n;
    row.k = op.k;
    row.batch = op.batch;
    // A shape the list knows runs at its rate (measured at that shape, or interpolated); a bare parameter
    // count at the best measured. A linear layer's backward is two GEMMs of other orientations than its
    // forward (g·W and gᵀ·x, as torch's mm backward calls them), each looked up as itself: on a generic
    // BLAS they run at 0.7–1.8× the forward's rate at the same shape (docs/benchmarks.md, "Where the CPU
    // prediction went wrong").
    // A batched GEMM (attention's bmm) has its own transposes: it takes the shape-only rate.
    const double best = fastestGemmFlopsPerSecond(profile, dtype);
    auto rateOf = [&](GemmOrientation o) {
        if (op.m * op.n * op.k <= 0)
            return best;
        return gemmFlopsPerSecond(profile, dtype, op.m * op.batch, op.n, op.k,
                                  op.batch == 1 ? o : GemmOrientation::any)
            .value_or(best);
    };
    double computeSeconds = 0;
    std::string rates;
    if (op.orientation) {
        const double rate = rateOf(*op.orientation);
        computeSeconds = op.flops / rate;
        if (texts)
            rates = n(op.flops) + " FLOPs / " + n(rate) + " FLOP/s";
    } else if (op.phase == StepTimePhase::backward && op.launches > 0) {
        const double perGemm = op.flops / op.launches;
        const double weightRate = rateOf(GemmOrientation::weightGradient);
        const double inputRate = op.inputGradient ? rateOf(GemmOrientation::inputGradient) : 0;
        computeSeconds = perGemm / weightRate + (op.inputGradient ? perGemm / inputRate : 0);
        if (texts)
            rates = op.inputGradient ? n(perGemm) + " FLOPs / " + n(inputRate) + " FLOP/s + " + n(perGemm) +
                                           " FLOPs / " + n(weightRate) + " FLOP/s"
                                     : n(perGemm) + " FLOPs / " + n(weightRate) + " FLOP/s";
    } else {
        const double rate = rateOf(GemmOrientation::forward);
        computeSeconds = op.flops / rate;
        if (texts)
            rates = n(op.flops) + " FLOPs / " + n(rate) + " FLOP/s";
    }
    row.kind = computeSeconds >= memorySeconds ? StepTimeKind::compute : StepTimeKind::memory;
    row.seconds = op.count * std::max(computeSeconds, memorySeconds);
    if (texts)
        row.formula = "max(F / R, B / BW) × count = max(" + rates + ", " + n(op.bytes) + " B / " +
                      n(bandwidth) + " B/s) × " + n(op.count) + " = " + secondsText(row.seconds);
    return row;
}

std::optional<StepTimeRow> perOpOverheadRow(StepTimePhase phase, double launches,
                                            const HardwareProfile& profile) {
    if (launches <= 0 || profile.perOpOverheadSeconds <= 0)
        return std::nullopt;
    StepTimeRow row;
    row.phase = phase;
    row.kind = StepTimeKind::overhead;
    row.seconds = launches * profile.perOpOverheadSeconds;
    if (formulasWanted()) {
        row.name = "per-op overhead (" + std::string(stepTimePhaseName(phase)) + ")";
        row.formula = "ops × overhead = " + n(launches) + " × " + n(profile.perOpOverheadSeconds) +
                      " s = " + secondsText(row.seconds);
    }
    return row;
}

namespace {

// The communication ledger's collectives: exposed, or overlapped with the compute they hide behind.
std::string addCommunication(StepTime& t, const AccountingInput& in, const AccountingResult& r,
                             const PhaseSeconds& phases, const StepTimeOptions& options) {
    double dataParallelSeconds = 0;
    for (const CommunicationItem& item : r.communication.items) {
        if (item.bytes <= 0)
            continue;
        if (!item.seconds)
            return item.name + " has no link figure (" + item.link + "): the step is not timed";
        if (item.group == CommunicationGroup::dataParallel)
            dataParallelSeconds += *item.seconds;
    }
    // DDP's bucketed all-reduce and ZeRO-1/2's reduce-scatter run during the last micro-batch's backward;
    // ZeRO-3/FSDP gathers and reduce-scatters layer by layer through forward and backward.
    PhaseSeconds p = phases;
    const double m = in.parallel.microbatches;
    const double window =
        !options.overlapDataParallel ? 0
        : in.zeroStage == 3
            ? p.of(StepTimePhase::forward) + p.of(StepTimePhase::backward) + p.of(StepTimePhase::recompute)
            : (p.of(StepTimePhase::backward) + p.of(StepTimePhase::recompute)) / m;
    const double exposedShare =
        dataParallelSeconds > 0 ? std::max(0.0, dataParallelSeconds - window) / dataParallelSeconds : 0;
    for (const CommunicationItem& item : r.communication.items) {
        if (item.bytes <= 0)
            continue;
        StepTimeRow row;
        row.phase = StepTimePhase::communication;
        row.kind = StepTimeKind::communication;
        row.bytes = item.bytes;
        row.seconds = *item.seconds * (item.group == CommunicationGroup::dataParallel ? exposedShare : 1);
        if (!formulasWanted()) { // a search's probe: the seconds alone
            t.ledger.push_back(row);
            continue;
        }
        row.name = item.name + " (" + std::string(communicationGroupName(item.group)) + ")";
        if (item.group == CommunicationGroup::dataParallel) {
            row.formula = item.formula + "; " + secondsText(*item.seconds) + " on " + item.link +
                          (options.overlapDataParallel
                               ? ", exposed share max(0, " + secondsText(dataParallelSeconds) + " − " +
                                     secondsText(window) + " of " +
                                     (in.zeroStage == 3 ? "forward and backward" : "the last backward") +
                                     ") / " + secondsText(dataParallelSeconds) + " = " + n(exposedShare)
                               : ", not overlapped");
        } else {
            row.formula = item.formula + "; " + secondsText(*item.seconds) + " on " + item.link +
                          ", on the critical path";
        }
        t.ledger.push_back(row);
    }
    const ParallelLayout& l = in.parallel;
    if (formulasWanted() && (l.tp > 1 || l.pp > 1 || l.cp > 1 || l.ep > 1))
        t.notModelled.emplace_back("tensor-, context-, expert- and pipeline-parallel traffic is counted whole "
                                   "on the critical path (no overlap with compute)");
    return {};
}

} // namespace

std::string_view stepTimeKindName(StepTimeKind kind) {
    switch (kind) {
    case StepTimeKind::compute:
        return "compute";
    case StepTimeKind::memory:
        return "memory";
    case StepTimeKind::communication:
        return "communication";
    case StepTimeKind::bubble:
        return "bubble";
    case StepTimeKind::overhead:
        return "overhead";
    }
    return "compute";
}

std::optional<HardwareProfile> defaultProfile(const GpuSpec& gpu, std::string& whyNot) {
    PublishedProfile published = publishedProfile(gpu);
    whyNot = published.whyNot;
    return published.profile;
}

StepTime publishedStepTime(const AccountingInput& input, const AccountingResult& result, const GpuSpec& gpu,
                           const StepTimeOptions& options) {
    std::string whyNot;
    const std::optional<HardwareProfile> profile = defaultProfile(gpu, whyNot);
    if (!profile) {
        StepTime none;
        none.whyNot = whyNot;
        return none;
    }
    return predictStepTime(input, result, *profile, options);
}

StepTime stepTimeFromProfile(const AccountingInput& input, const AccountingResult& result, const GpuSpec& gpu,
                             const HardwareProfile* profile, const StepTimeOptions& options) {
    if (profile && profileDeviceMismatch(*profile, gpu).empty())
        return predictStepTime(input, result, *profile, options);
    return publishedStepTime(input, result, gpu, options);
}

std::string profileDeviceMismatch(const HardwareProfile& profile, const GpuSpec& gpu) {
    if (equalsIgnoringCase(profile.device, gpu.id))
        return {};
    return "the profile was measured on " + profile.device + ", the account is for " + gpu.id;
}

namespace {

// Uneven pipeline stages: 1F1B moves every stage a micro-batch at a time, so the stage with the most work
// sets the pace. The first, second and last stages' op lists are timed (values only) and the slowest's is
// returned, made again with its texts.
std::pair<StepOpList, PipelineStage> slowestStageOps(const AccountingInput& in, const AccountingResult& r,
                                                     const HardwareProfile& profile, StepOpList last) {
    PipelineStage slowest = PipelineStage::last;
    {
        const ValuesOnly valuesOnly;
        auto seconds = [&](PipelineStage stage) {
            const StepOpList list = stepOps(in, r, stage);
            double total = 0;
            for (const StepOp& op : list.ops)
                total += costStepOp(op, profile, list, list.activations).seconds;
            return total;
        };
        double most = seconds(PipelineStage::last);
        for (const PipelineStage stage : {PipelineStage::first, PipelineStage::middle}) {
            if (stage == PipelineStage::middle && in.parallel.pp < 3)
                continue;
            if (const double s = seconds(stage); s > most) {
                most = s;
                slowest = stage;
            }
        }
    }
    if (slowest == PipelineStage::last)
        return {std::move(last), slowest};
    return {stepOps(in, r, slowest), slowest};
}

} // namespace

StepTime predictStepTime(const AccountingInput& in, const AccountingResult& r, const HardwareProfile& profile,
                         const StepTimeOptions& options) {
    StepTime t;
    t.basis = profile.source;
    StepOpList ops = stepOps(in, r);
    if (!ops.whyNot.empty()) {
        t.whyNot = ops.whyNot;
        return t;
    }
    // The op list's model FLOPs must be the accounting's: a list that missed or doubled a GEMM would
    // time another model than the one the page shows.
    const double expected = r.flopsPerStep.forward * modelParallelSize(in.parallel);
    const double listed = opListReplicaForwardFlops(in);
    if (std::abs(listed - expected) > 1e-9 * std::max(expected, 1.0)) {
        t.whyNot = "the op list's forward FLOPs (" + n(listed) + ") differ from the accounting's (" +
                   n(expected) + "): this setup's ops are not modelled";
        return t;
    }
    const ComputeType dtype = ops.dtype;
    if (fastestGemmFlopsPerSecond(profile, dtype) <= 0) {
        t.whyNot = "the profile (" + profile.source + ") has no " + std::string(computeTypeName(dtype)) +
                   " GEMM rate; give --hardware-profile with one measured in " +
                   std::string(computeTypeName(dtype));
        return t;
    }
    if (in.parallel.pp > 1 && hasUnevenStages(in.parallel)) {
        auto [slowest, stage] = slowestStageOps(in, r, profile, std::move(ops));
        ops = std::move(slowest);
        if (formulasWanted())
            ops.notModelled.push_back("uneven stages: the " + std::string(pipelineStageName(stage)) +
                                      " stage's ops are timed, the slowest; the others wait on it each "
                                      "micro-batch");
    }
    PhaseSeconds phases;
    for (const StepOp& op : ops.ops) {
        StepTimeRow row = costStepOp(op, profile, ops, ops.activations);
        phases.of(op.phase) += row.seconds;
        phases.launches[static_cast<std::size_t>(op.phase)] += op.launches * op.count;
        t.ledger.push_back(std::move(row));
    }
    for (std::size_t i = 0; i < phases.launches.size(); ++i)
        if (std::optional<StepTimeRow> row =
                perOpOverheadRow(static_cast<StepTimePhase>(i), phases.launches[i], profile)) {
            phases.seconds[i] += row->seconds;
            t.ledger.push_back(std::move(*row));
        }
    if (std::string why = addCommunication(t, in, r, phases, options); !why.empty()) {
        t = StepTime{};
        t.basis = profile.source;
        t.whyNot = why;
        return t;
    }
    // 1F1B: (p − 1)/v micro-batches' forward and backward of idle per stage (Narayanan et al. 2021, §2.2).
    const ParallelLayout& l = in.parallel;
    if (l.pp > 1) {
        const double perMicrobatch = (phases.of(StepTimePhase::forward) + phases.of(StepTimePhase::backward) +
                                      phases.of(StepTimePhase::recompute)) /
                                     l.microbatches;
        StepTimeRow row;
        row.name = l.virtualStages > 1 ? "pipeline bubble (interleaved 1F1B)" : "pipeline bubble (1F1B)";
        row.phase = StepTimePhase::pipeline;
        row.kind = StepTimeKind::bubble;
        row.seconds = (l.pp - 1) / l.virtualStages * perMicrobatch;
        if (formulasWanted())
            row.formula = "(p − 1)/v × (t_f + t_b per micro-batch) = (" + n(l.pp) + " − 1)/" +
                          n(l.virtualStages) + " × " + secondsText(perMicrobatch) + " = " +
                          secondsText(row.seconds);
        t.ledger.push_back(std::move(row));
    }
    for (const StepTimeRow& row : t.ledger)
        t.seconds += row.seconds;
    if (formulasWanted())
        t.notModelled.insert(t.notModelled.begin(), ops.notModelled.begin(), ops.notModelled.end());
    const double peak = r.densePeakFlopsPerSecond.value;
    const double modelFlops = r.flopsPerStep.forward + r.flopsPerStep.backward; // per GPU
    if (peak > 0) {
        t.mfu = modelFlops / (t.seconds * peak);
        t.hfu = r.flopsPerStep.total / (t.seconds * peak);
    }
    if (formulasWanted())
        t.mfuFormula = "model FLOPs per GPU / (seconds × dense peak) = " + n(modelFlops) + " / (" +
                       n(t.seconds) + " s × " + n(peak) + " FLOP/s) = " + n(t.mfu);
    t.tokensPerSecond = tokensPerStep(in.model, r.globalBatch.value) / t.seconds;
    t.predicted = true;
    return t;
}

} // namespace napkin
