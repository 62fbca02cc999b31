// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/training_run.h"

#include "engine/benchmarks/training_memory_check.h"
#include "engine/compute/cruncher_checkpoint.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/io/writable_target.h"
#include "engine/numerics/diverged_loss.h"

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

namespace napkin {

AccountingInput cruncherAccountingInput(const CruncherConfig& c) {
    AccountingInput in;
    in.model.kind = ModelKind::cruncher;
    in.model.dim = static_cast<double>(c.dim);
    in.model.layers = static_cast<double>(c.layers);
    in.batch = static_cast<double>(c.batch);
    in.optimizer = c.optimizer;
    in.precision = c.precision;
    in.fineTuning.frozenLayers = c.frozenLayers;
    return in;
}

AccountingResult predictedCruncherAccounting(const CruncherConfig& c) {
    const AccountingInput in = cruncherAccountingInput(c);
    return account(in, *GpuCatalog::builtIn().find(in.gpu)); // memory does not depend on the GPU
}

namespace {

MemoryComparison compareMemory(const CruncherTrainer& trainer, const CruncherConfig& config) {
    const MemoryLedger& ledger = trainer.ledger();
    const AccountingInput in = cruncherAccountingInput(config);
    const AccountingResult p = predictedCruncherAccounting(config);
    // Each component at its peak: freed between steps, every one of them was held in full at some event.
    const auto peak = [&](MemoryTag tag) { return ledger.peakBytes(tag); };
    MemoryComparison m;
    m.parameters = {p.memory.parameters.value, peak(MemoryTag::parameters)};
    m.gradients = {p.memory.gradients.value, peak(MemoryTag::gradients)};
    m.masterWeights = {p.memory.masterWeights.value, peak(MemoryTag::masterWeights)};
    m.optimizerState = {p.memory.optimizerState.value, peak(MemoryTag::optimizerState)};
    m.activations = {p.memory.activations.value, peak(MemoryTag::activations)};
    m.total = {p.memory.total.value, m.parameters.measured + m.gradients.measured + m.masterWeights.measured +
                                         m.optimizerState.measured + m.activations.measured};
    m.inputsBytes = peak(MemoryTag::inputs);
    m.workspaceBytes = peak(MemoryTag::workspace);
    m.scratchBytes = peak(MemoryTag::scratch);
    m.allocatedBytes = ledger.peakTotalBytes();
    m.predictedTimeline =
        memoryTimeline(in, p, trainer.stepsDone() <= 1 ? TrainingStep::first : TrainingStep::steady);
    m.measuredTimeline = trainer.measuredTimeline();
    m.peakMeasuredBytes = ledger.peakStepBytes();
    return m;
}

} // namespace

TrainingRun runCruncherTraining(BenchmarkBackend& backend, const TrainingRunRequest& request,
                                const ProgressCallback& progress) {
    TrainingRun run;
    run.request = request;
    const CruncherConfig& config = request.config;
    // Checked before anything is allocated or trained: a refusal costs nothing.
    if (std::string why = backend.unsupportedRecipeReason(config); !why.empty())
        throw std::invalid_argument("--precision " + trainingRecipeName(config) + ": " + why);
    if (backend.deviceInfo().backend == "cpu")
        if (std::string why = cpuTrainingMemoryRefusal(config, physicalMemoryBytes()); !why.empty())
            throw TrainingRunRefused(TrainingRunRefused::Cause::model, why);
    if (!config.frozenLayers.empty() && backend.deviceInfo().backend != "cpu")
        throw std::invalid_argument("frozen layers are trained on the CPU trainers (eigen, onednn) only");
    if (std::string why = checkpointRefusal(config); !why.empty()) {
        if (!request.resumeFrom.empty())
            throw TrainingRunRefused(TrainingRunRefused::Cause::resume, why);
        if (!request.saveTo.empty())
            throw TrainingRunRefused(TrainingRunRefused::Cause::save, why);
    }
    if (!request.saveTo.empty())
        if (std::string why = unwritableTargetReason(request.saveTo); !why.empty())
            throw TrainingRunRefused(TrainingRunRefused::Cause::save, why);
    std::unique_ptr<CruncherTrainer> trainer;
    try {
        trainer = backend.makeCruncherTrainer(config);
    } catch (const std::runtime_error& e) { // a GPU without room for it is an answer, not a crash
        throw TrainingRunRefused(TrainingRunRefused::Cause::model, e.what());
    }
    if (!request.resumeFrom.empty()) {
        try {
            trainer->loadCheckpoint(request.resumeFrom);
        } catch (const std::runtime_error& e) {
            throw TrainingRunRefused(TrainingRunRefused::Cause::resume, e.what());
        }
    }
    run.firstStep = trainer->stepsDone() + 1;
    BenchmarkProgress state;
    state.caseCount = static_cast<int>(request.steps);
    state.phase = "training";
    std::vector<double> seconds;
    std::vector<DeviceStepTiming> deviceTimes;
    using Clock = std::chrono::steady_clock;
    for (long s = 0; s < request.steps; ++s) {
        if (progress) {
            state.caseIndex = static_cast<int>(s);
            state.fraction = static_cast<double>(s) / static_cast<double>(request.steps);
            state.detail = "step " + std::to_string(s + 1) + "/" + std::to_string(request.steps);
            if (!progress(state)) {
                run.cancelled = true;
                break;
            }
        }
        const auto start = Clock::now();
        const double loss = trainer->step();
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        if (const std::optional<DeviceStepTiming> t = trainer->lastStepTiming())
            deviceTimes.push_back(*t);
        if (std::string why = divergedLossReason(loss, run.firstStep + s, config.hyper.learningRate);
            !why.empty())
            throw TrainingRunRefused(TrainingRunRefused::Cause::diverged, why);
        run.losses.push_back(loss);
        if (progress) { // the loss as soon as it is known, so a curve grows step by step
            BenchmarkProgress done = state;
            done.caseIndex = static_cast<int>(s);
            done.fraction = static_cast<double>(s + 1) / static_cast<double>(request.steps);
            done.detail = "step " + std::to_string(s + 1) + "/" + std::to_string(request.steps);
            done.stepLoss = loss;
            if (!progress(done) && s + 1 < request.steps) {
                run.cancelled = true;
                break;
            }
        }
    }
    if (!request.saveTo.empty() && !run.cancelled)
        trainer->saveCheckpoint(request.saveTo);
    // The first step pays for page faults and thread start-up: it is the warm-up when there are others.
    run.stepTiming = summarizeTimings(
        seconds.size() > 1 ? std::vector<double>(seconds.begin() + 1, seconds.end()) : seconds);
    run.device = backend.deviceInfo();
    run.flopsPerStep = cruncherCountedFlopsPerStep(config);
    run.flopsPerStep6BP = 6.0 * static_cast<double>(config.batch) * cruncherParameters(config);
    // A device's own time, where it gives one, over the same steps as the wall clock's (the first left out).
    if (!deviceTimes.empty() && deviceTimes.size() == seconds.size()) {
        const std::size_t first = deviceTimes.size() > 1 ? 1 : 0;
        std::vector<double> device, draw;
        for (std::size_t i = first; i < deviceTimes.size(); ++i) {
            device.push_back(deviceTimes[i].deviceSeconds);
            draw.push_back(deviceTimes[i].drawSeconds);
        }
        run.deviceStepTiming = summarizeTimings(std::move(device));
        run.batchDrawSecondsMedian = summarizeTimings(std::move(draw)).medianSeconds;
    }
    const double wallSeconds = run.stepTiming.medianSeconds;
    const double timedSeconds = run.deviceStepTiming ? run.deviceStepTiming->medianSeconds : wallSeconds;
    run.mfuBasis = run.deviceStepTiming
                       ? "gpu_step_seconds_median (CUDA events: first GEMM to the optimizer's end)"
                       : "step_seconds_median (steady clock around each step)";
    run.flopsPerSecond = timedSeconds > 0 ? run.flopsPerStep / timedSeconds : 0;
    // The promise of the dtype the GEMMs run in: each recipe's own peak (fp32, tf32, bf16, fp16).
    if (const auto it = run.device.promisedFlopsPerSecond.find(trainingComputeDtype(config));
        it != run.device.promisedFlopsPerSecond.end()) {
        run.promisedFlopsPerSecond = it->second;
        if (it->second > 0) {
            run.mfu = run.flopsPerSecond / it->second;
            if (wallSeconds > 0)
                run.wallMfu = run.flopsPerStep / wallSeconds / it->second;
        }
    }
    run.memory = compareMemory(*trainer, config);
    run.memory.allocatorReportedBytes = trainer->allocatorReportedBytes();
    run.memory.deviceAllocations = trainer->deviceAllocations();
    return run;
}

} // namespace napkin
