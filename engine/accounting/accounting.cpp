// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/accounting.h"

#include "engine/accounting/accounting_notes.h"
#include "engine/accounting/fine_tuning_answers.h"
#include "engine/accounting/fine_tuning_flops.h"
#include "engine/accounting/fit_advice.h"
#include "engine/accounting/max_sequence.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/accounting/pipeline_stages.h"
#include "engine/accounting/stage_memory.h"
#include "engine/hardware/gpu_capabilities.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"
#include "engine/numerics/work_counts.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

constexpr double kSecondsPerDay = 86400.0;

// Memory of the most loaded GPU: with a pipeline, the first stage (embedding, min(p, m) micro-batches in
// flight) or the last (output layer, logits), whichever holds more; with uneven stages also the second
// (p − 1 micro-batches of a middle stage's layers), which lighter first and last stages can leave the most
// loaded.
ModelStateMemory addMemory(AccountingResult& r, const AccountingInput& in) {
    StageMemory first = stageMemory(in, r.parameters.total, r.bytesPerParameter, r.precision.activations,
                                    PipelineStage::first);
    std::optional<StageMemory> last, middle;
    if (in.parallel.pp > 1)
        last = stageMemory(in, r.parameters.total, r.bytesPerParameter, r.precision.activations,
                           PipelineStage::last);
    if (in.parallel.pp > 2 && hasUnevenStages(in.parallel))
        middle = stageMemory(in, r.parameters.total, r.bytesPerParameter, r.precision.activations,
                             PipelineStage::middle);
    StageMemory* most = &first;
    for (std::optional<StageMemory>* other : {&last, &middle})
        if (*other && (*other)->totalBytes > most->totalBytes)
            most = &**other;
    StageMemory& shown = *most;
    if (last && formulasWanted()) // the table, not a search's probe (before the shown stage's rows move)
        r.pipelineStages = pipelineStageRows(in, first, *last, r.bytesPerParameter);
    if (last)
        r.memoryStage = shown.stage;
    const ModelStateMemory& states = shown.states;
    r.memory.parameters = states.parameters;
    r.memory.gradients = states.gradients;
    r.memory.masterWeights = states.masterWeights;
    r.memory.optimizerState = states.optimizerState;
    r.parametersOnGpu = {shown.parameters.total(), shown.parameters.formula};

    r.activations = std::move(shown.activations); // its ledger rows are many strings: moved, not copied
    const ActivationMemory& activations = r.activations;
    r.activationsModelled = activations.modelled;
    r.memory.activations = {activations.bytes, activations.formula};

    r.gathered = shown.gathered;
    const double statesBytes = shown.statesBytes;
    const double gathered = shown.gathered.peakBytes();
    const double total =
        gathered > 0 ? statesBytes + activations.bytes + gathered : statesBytes + activations.bytes;
    if (!formulasWanted()) { // a search's probe: the peak needs the memory, not its texts or the maxima
        r.memory.total.value = total;
        return states;
    }
    r.memory.total = {total, concat({n(states.parameters.value), " + ", n(states.gradients.value), " + ",
                                     n(states.masterWeights.value), " + ", n(states.optimizerState.value),
                                     " + ", n(activations.bytes), gathered > 0 ? " + " : "",
                                     gathered > 0 ? n(gathered) : std::string(),
                                     gathered > 0 ? " (gathered layers)" : "", " = ", n(total), " B"})};
    return states;
}

// The largest models whose states fit: on this GPU, and pooled over all of them. The room is the
// capacity `fits` is judged against less the overheads that do not grow with the model's activations
// (memory_overheads.h), all of it in the datasheet basis.
void addMaxParameters(AccountingResult& r, const AccountingInput& in, const ModelStateMemory& states) {
    const double room = modelStateBudgetBytes(r.overheads, in.overheads.fragmentation);
    const bool whole = in.overheads.basis == MemoryBasis::datasheet;
    const double f = in.overheads.fragmentation;
    const std::string roomText =
        whole ? concat({n(room), " B"})
              : concat({"(", n(r.usableBytes.value), " − ", n(r.overheads.fixedBytes), ") B",
                        f > 0 ? " / " : "",
                        f > 0 ? n(1 + f) : std::string()}); // usable less the fixed overheads

    // Each GPU holds 1/(tp·pp) of a dense model's weights, which ZeRO shards further. The model states
    // alone are the step's peak at the optimizer step, where no activation is held.
    const double split = in.parallel.tp * in.parallel.pp;
    const double maxParams = std::floor(room * split / states.bytesPerParameterPerGpu);
    r.maxParameters = {maxParams,
                       concat({roomText, split > 1 ? " × " : "", split > 1 ? n(split) : std::string(),
                               split > 1 ? " (tp·pp)" : "", " / (", states.bytesPerParameterPerGpuFormula,
                               ") = ", n(maxParams), " parameters"})};
    std::string perParameterLedger = r.bytesPerParameter.ledger;
    double perParameter = r.bytesPerParameter.total;
    if (r.fineTune) { // the model states of one unsharded copy, per base parameter
        const FineTuneMemory one =
            fineTuneMemory(in.model, in.fineTuning, r.parameters.total, r.bytesPerParameter,
                           r.precision.parameters, 0, 1, in.recompute == Recompute::full);
        perParameter = one.states.bytesPerParameterPerGpu;
        perParameterLedger = one.states.bytesPerParameterPerGpuFormula;
    }
    const double pooled = std::floor(in.gpus * room / perParameter);
    r.maxParametersPooled = {
        pooled, concat({whole ? "GPUs × capacity" : "GPUs × room", " / bytes per parameter = ", n(in.gpus),
                        " × ", roomText, " / (", perParameterLedger, ") = ", n(pooled), " parameters"})};
}

// The step's peak decides whether it fits: the timeline's largest total, or the sum where the order of the
// step is not modelled (its timeline then has phases only, whose peak is the sum).
void addPeak(AccountingResult& r, const AccountingInput& in, const GpuSpec& gpu) {
    r.peakFromTimeline = isTimelineModelled(in);
    std::optional<MemoryTimeline> timeline;
    if (formulasWanted()) {
        timeline = memoryTimeline(in, r);
        r.peakMemory = {timeline->peakBytes, timeline->peakFormula};
    } else { // a search's probe: the peak and fits alone, no event kept
        r.peakMemory.value = memoryTimelinePeakBytes(in, r);
    }
    r.overheads = memoryOverheads(in, gpu, r);
    r.usableBytes.value = r.overheads.usableBytes;
    r.predictedBytes.value = r.peakMemory.value + r.overheads.totalBytes;
    r.fits = r.predictedBytes.value <= r.usableBytes.value;
    if (!timeline)
        return;
    r.usableBytes.formula = r.overheads.usableSource;
    r.predictedBytes.formula = concat({"peak + overheads = ", n(r.peakMemory.value), " + ",
                                       n(r.overheads.totalBytes), " = ", n(r.predictedBytes.value), " B"});
    r.peakEvent =
        timeline->events.empty() ? std::string() : stepEventName(timeline->events[timeline->peakIndex].event);
    const double sum = r.memory.total.value;
    const bool datasheet = in.overheads.basis == MemoryBasis::datasheet;
    const bool sumDiffers = r.peakFromTimeline && sum != r.peakMemory.value;
    r.fitsFormula =
        concat({"peak ", n(r.peakMemory.value), " B",
                r.peakFromTimeline ? " at " : " (the sum: the step's order is not modelled)",
                r.peakFromTimeline ? std::string_view(r.peakEvent) : std::string_view(),
                datasheet ? "" : " + overheads ", datasheet ? std::string() : n(r.overheads.totalBytes),
                datasheet ? "" : " B = ", datasheet ? std::string() : n(r.predictedBytes.value),
                datasheet ? "" : " B", r.fits ? " ≤ " : " > ", n(r.usableBytes.value), " B",
                datasheet ? "" : " usable", sumDiffers ? "; the sum is " : "",
                sumDiffers ? n(sum) : std::string(), sumDiffers ? " B" : ""});
}

// The largest batch whose peak fits. The peak is a maximum over events of totals linear in the batch, so
// two evaluations give the peak event's slope and the bound; the search then confirms it (rounding) and
// falls back to bisection should the estimate ever be off. Each probe is a peakBytes(), no text.
void addMaxBatch(AccountingResult& r, const AccountingInput& in, const GpuSpec& gpu) {
    if (!r.activationsModelled || r.activations.bytesPerSample <= 0)
        return;
    const double capacity = r.usableBytes.value;
    constexpr double kLargest = 1e9; // the largest batch validate() accepts
    // (batch, peak + overheads): what `fits` compares with the usable memory
    std::vector<std::pair<double, double>> probes{{in.batch, r.predictedBytes.value}};
    auto peakAt = [&](double batch) {
        for (const auto& [probed, peak] : probes)
            if (probed == batch)
                return peak;
        AccountingInput c = in;
        c.batch = batch;
        probes.emplace_back(batch, requiredBytes(c, gpu));
        return probes.back().second;
    };
    auto fitsAt = [&](double batch) { return peakAt(batch) <= capacity; };

    // The input's own batch is known; when it fits, the search starts there, one more probe (b + 1) gives
    // the slope, and a third lands on the answer while the same event holds the peak.
    double lo = 0, hi = kLargest + 1; // fitsAt(lo) or lo = 0; hi: beyond the search, or known not to fit
    (fitsAt(in.batch) ? lo : hi) = in.batch;
    if (lo == 0 && hi > 1)
        (fitsAt(1) ? lo : hi) = 1;
    if (lo >= 1 && hi - lo > 1) {
        const double at = peakAt(lo), next = peakAt(lo + 1);
        double guess = next > at ? lo + std::floor((capacity - at) / (next - at)) : kLargest;
        guess = std::clamp(guess, lo, std::min(hi - 1, kLargest));
        if (fitsAt(guess)) {
            lo = guess;
            if (guess == kLargest || !fitsAt(guess + 1))
                hi = guess + 1;
        } else {
            hi = guess;
        }
        while (hi - lo > 1) {
            const double mid = std::floor((lo + hi) / 2);
            (fitsAt(mid) ? lo : hi) = mid;
        }
    }
    const double best = std::min(lo, kLargest);
    const std::string over = best < kLargest
                                 ? concat({"; at ", n(best + 1), " it is ", n(peakAt(best + 1)), " B"})
                                 : std::string();
    const bool datasheet = in.overheads.basis == MemoryBasis::datasheet;
    const std::string_view what = datasheet ? "the peak" : "the peak + overheads";
    r.maxBatch =
        Quantity{best, best >= 1 ? concat({"largest batch whose step peak fits: at ", n(best), " ", what,
                                           " is ", n(peakAt(best)), " B ≤ ", n(capacity), " B", over})
                                 : concat({"even batch 1 ", datasheet ? "peaks at " : "needs ", n(peakAt(1)),
                                           " B > ", n(capacity), " B"})};
}

void addLayout(AccountingResult& r, const AccountingInput& in) {
    const ParallelLayout& l = in.parallel;
    const double dp = dataParallelSize(l, in.gpus);
    r.dataParallel = {dp, concat({"GPUs / (tp·pp·cp) = ", n(in.gpus), " / (", n(l.tp), " × ", n(l.pp), " × ",
                                  n(l.cp), ") = ", n(dp)})};
    const double global = in.batch * l.microbatches * dp;
    r.globalBatch = {global, concat({"batch·microbatches·dp = ", n(in.batch), " × ", n(l.microbatches), " × ",
                                     n(dp), " = ", n(global), " sequences"})};
    const double bubble = pipelineBubbleFraction(l);
    if (l.virtualStages > 1) // Narayanan et al. 2021, section 2.2.2: the bubble shrinks v-fold
        r.pipelineBubbleFraction = {
            bubble, concat({"interleaved: (p − 1)/(v·m + p − 1) = (", n(l.pp), " − 1)/(", n(l.virtualStages),
                            " × ", n(l.microbatches), " + ", n(l.pp), " − 1) = ", n(bubble)})};
    else
        r.pipelineBubbleFraction = {bubble,
                                    concat({"(p − 1)/(m + p − 1) = (", n(l.pp), " − 1)/(", n(l.microbatches),
                                            " + ", n(l.pp), " − 1) = ", n(bubble)})};
}

void addCommunication(AccountingResult& r, const AccountingInput& in, const GpuSpec& gpu) {
    CommunicationInput c;
    c.model = in.model;
    c.layout = in.parallel;
    c.gpus = in.gpus;
    c.batch = in.batch;
    c.zeroStage = in.zeroStage;
    c.recompute = in.recompute;
    c.parameterBytes = r.bytesPerParameter.parameters;
    // FSDP2's MixedPrecisionPolicy(reduce_dtype=torch.float32): the gradients are reduced in fp32.
    c.gradientBytes = in.sharding.fp32Reduce ? 4.0 : r.bytesPerParameter.gradients;
    c.activationBytes = bytesPerElement(r.precision.activations);
    c.stage = r.memoryStage.value_or(PipelineStage::first);
    {
        const ValuesOnly
            countsOnly; // the ledger reads the counts; the page shows the formula from addMemory()
        c.onGpu = parametersOnGpu(in.model, in.parallel, c.stage);
    }
    c.shardGroup = in.sharding.shardGroup;
    r.communication = communicationPerStep(c, gpu);
}

// Per token and totals from one replica's step (`replica`): independent of how it is split over GPUs.
// Time divides model FLOPs (forward + backward, no recompute) by MFU · peak, as PaLM defines MFU; the
// recompute raises the hardware FLOPs and so the HFU, not the time at a given MFU.
void addTraining(AccountingResult& r, const AccountingInput& in, const StepFlops& f) {
    const double model = f.forward + f.backward;
    const double perToken = model / f.tokens;
    const double hardwarePerToken = f.total / f.tokens;
    const double coefficient = perToken / r.parameters.matmulParameters;
    const bool simpleRule = in.model.kind != ModelKind::transformer;
    r.flopsPerToken = {
        perToken, simpleRule
                      ? concat({"model FLOPs per token = ", n(coefficient), "·P = ", n(coefficient), " × ",
                                n(r.parameters.matmulParameters), " = ", n(perToken), " FLOPs"})
                      : concat({"model FLOPs per token = (forward + backward) / tokens = (", n(f.forward),
                                " + ", n(f.backward), ") / ", n(f.tokens), " = ", n(perToken), " FLOPs"})};
    r.hardwareFlopsPerToken = {
        hardwarePerToken, concat({"hardware FLOPs per token = (forward + backward + recompute) / tokens = (",
                                  n(f.forward), " + ", n(f.backward), " + ", n(f.recompute), ") / ",
                                  n(f.tokens), " = ", n(hardwarePerToken), " FLOPs"})};
    const double hfu = in.mfu * hardwarePerToken / perToken;
    r.hfu = {hfu, concat({"HFU = MFU × hardware FLOPs / model FLOPs = ", n(in.mfu), " × ",
                          n(hardwarePerToken), " / ", n(perToken), " = ", n(hfu)})};
    if (!in.trainingTokens)
        return;
    const double tokens = *in.trainingTokens;
    const double flops = perToken * tokens;
    r.trainingFlops = Quantity{
        flops, simpleRule
                   ? concat({"model FLOPs = ", n(coefficient), "·N·tokens = ", n(coefficient), " × ",
                             n(r.parameters.matmulParameters), " × ", n(tokens), " = ", n(flops), " FLOPs"})
                   : concat({"model FLOPs = model FLOPs per token × tokens = ", n(perToken), " × ", n(tokens),
                             " = ", n(flops), " FLOPs"})};
    const double hardware = hardwarePerToken * tokens;
    r.trainingHardwareFlops = Quantity{
        hardware, concat({"hardware FLOPs = hardware FLOPs per token × tokens = ", n(hardwarePerToken), " × ",
                          n(tokens), " = ", n(hardware), " FLOPs"})};
    const double peak = r.densePeakFlopsPerSecond.value;
    if (!r.timeUnavailable.empty()) // no peak for this arithmetic: the FLOPs stand, the time cannot
        return;
    double seconds = flops / (in.gpus * peak * in.mfu);
    std::string secondsFormula = concat({"model FLOPs / (GPUs × peak × MFU) = ", n(flops), " / (", n(in.gpus),
                                         " × ", n(peak), " × ", n(in.mfu), ") = ", n(seconds), " s"});
    if (r.hostLinkSecondsPerStep && r.computeSecondsPerStep &&
        r.hostLinkSecondsPerStep->value > r.computeSecondsPerStep->value) {
        // Offloaded: each step waits for the host link, which takes longer than the compute.
        const double steps = tokens / (f.tokens * r.dataParallel.value);
        seconds = steps * r.hostLinkSecondsPerStep->value;
        secondsFormula =
            concat({"steps × host-link seconds per step (the link outlasts the compute) = ", n(steps), " × ",
                    n(r.hostLinkSecondsPerStep->value), " = ", n(seconds), " s"});
    }
    r.trainingSeconds = Quantity{seconds, std::move(secondsFormula)};
    const double days = seconds / kSecondsPerDay;
    r.trainingDays = Quantity{days, concat({n(seconds), " s / 86400 = ", n(days), " days"})};
    r.gpuDays =
        Quantity{days * in.gpus, concat({n(days), " × ", n(in.gpus), " = ", n(days * in.gpus), " GPU-days"})};
}

} // namespace

AccountingResult account(const AccountingInput& in, const GpuSpec& gpu) {
    AccountingResult r = accountWithoutAdvice(in, gpu);
    if (!fitsAtBatchOne(r))
        r.fitAdvice = fitAdvice(in, gpu, r);
    return r;
}

AccountingResult accountWithoutAdvice(const AccountingInput& in, const GpuSpec& gpu) {
    AccountingResult r = accountStep(in, gpu);
    addMaxBatch(r, in, gpu);
    r.maxSequence = maxSequence(in, gpu, r);
    addPeakNotes(r, in);
    return r;
}

AccountingResult accountPeak(const AccountingInput& in, const GpuSpec& gpu) {
    if (formulasWanted())
        ++workCounts().peakEvaluations;
    AccountingResult r;
    if (formulasWanted()) {
        r.parameters = countParameters(in.model);
    } else { // a search's probe: the counts alone
        const ParameterTotals totals = parameterTotals(in.model);
        r.parameters.total = totals.total;
        r.parameters.matmulParameters = totals.matmulParameters;
        r.parameters.active = totals.active;
    }
    r.precision = ledgerFor(in.precision, in.fp32Gradients);
    r.bytesPerParameter = bytesPerParameter(r.precision, in.optimizer);
    r.capacityBytes.value = gpu.memoryBytes;
    if (formulasWanted())
        r.capacityBytes.formula =
            gpu.id + " memory = " + n(gpu.memoryBytes) + " B (" + formatBytes(gpu.memoryBytes) + ")";
    r.trainableParameters = r.parameters.total;
    if (isFineTuningSet(in.fineTuning)) {
        r.fineTune =
            fineTuneMemory(in.model, in.fineTuning, r.parameters.total, r.bytesPerParameter,
                           r.precision.parameters, in.zeroStage, in.gpus, in.recompute == Recompute::full);
        r.trainableParameters = r.fineTune->trainableParameters.value;
    }
    const ModelStateMemory states = addMemory(r, in);
    addPeak(r, in, gpu);
    if (formulasWanted())
        addMaxParameters(r, in, states);
    return r;
}

double peakBytes(const AccountingInput& in, const GpuSpec& gpu) {
    const ValuesOnly valuesOnly;
    ++workCounts().fastPeaks;
    return accountPeak(in, gpu).peakMemory.value;
}

double requiredBytes(const AccountingInput& in, const GpuSpec& gpu) {
    const ValuesOnly valuesOnly;
    ++workCounts().fastPeaks;
    return accountPeak(in, gpu).predictedBytes.value;
}

double usableBytes(const AccountingInput& in, const GpuSpec& gpu) {
    return in.overheads.basis == MemoryBasis::usable && gpu.driverMemoryBytes ? *gpu.driverMemoryBytes
                                                                              : gpu.memoryBytes;
}

bool peakFits(const AccountingInput& in, const GpuSpec& gpu) {
    return requiredBytes(in, gpu) <= usableBytes(in, gpu);
}

AccountingResult accountStep(const AccountingInput& in, const GpuSpec& gpu) {
    AccountingResult r = accountPeak(in, gpu);
    const EffectivePeak effective = effectiveDensePeak(gpu, r.precision.compute);
    const double peak = effective.flopsPerSecond;
    const std::string peakName =
        gpu.id + " dense " + std::string(computeTypeName(r.precision.compute)) + " peak";
    if (effective.refused) { // memory needs no peak; the time answers say why they are missing
        r.densePeakFlopsPerSecond = {0, peakName + ": none (" + effective.reason + ")"};
        r.timeUnavailable = "no training time: " + effective.reason;
    } else {
        r.densePeakFlopsPerSecond = {peak,
                                     peakName + " = " + n(peak) + " FLOP/s" +
                                         (effective.reason.empty() ? "" : " (" + effective.reason + ")")};
    }
    const double sequences = in.batch * in.parallel.microbatches;
    StepFlops replica = countStepFlops(in.model, sequences, in.recompute, in.attention);
    if (hasAdapters(in.fineTuning))
        replica = fineTuneStepFlops(replica, in.model, in.fineTuning, sequences, in.recompute, in.attention);
    r.flopsPerStep = perGpu(replica, modelParallelSize(in.parallel));
    addLayout(r, in);
    addHostLinkTime(r, in, gpu, replica);
    addTraining(r, in, replica);
    if (r.trainingSeconds)
        r.runCost = runCost(in.gpus, r.trainingSeconds->value, gpu, in.cost);
    addCommunication(r, in, gpu);
    addStepNotes(r, in);
    addFineTuneNotes(r, in);
    addLayoutNotes(r, in);
    return r;
}

} // namespace napkin
