// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/cruncher_step_time.h"

#include "engine/accounting/frozen_layers.h"
#include "engine/accounting/optimizer_kind.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/text/ascii_case.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

struct RecipeTypes {
    ComputeType gemm = ComputeType::fp32;
    StorageType working = StorageType::fp32; ///< weights, gradients and activations as the GEMMs see them
    bool mixed = false;                      ///< fp32 master weights beside the working copy
    bool lossScaled = false;                 ///< mixed-fp16: every gradient checked for inf/NaN first
};

std::optional<RecipeTypes> recipeTypes(const CruncherConfig& c) {
    switch (c.precision) {
    case PrecisionRecipe::fp32:
        return RecipeTypes{c.tf32Matmuls ? ComputeType::tf32 : ComputeType::fp32, StorageType::fp32, false,
                           false};
    case PrecisionRecipe::mixedBf16:
        return RecipeTypes{ComputeType::bf16, StorageType::bf16, true, false};
    case PrecisionRecipe::mixedFp16:
        return RecipeTypes{ComputeType::fp16, StorageType::fp16, true, true};
    case PrecisionRecipe::fp16:
    case PrecisionRecipe::bf16:
    case PrecisionRecipe::fp8Mixed:
        break;
    }
    return std::nullopt;
}

// Builds the list in the trainer's order; each GEMM is C[m×n] = A[m×k]·B[k×n] at 2·m·n·k FLOPs, reading
// A and B and writing C once in the working dtype.
class CruncherOps {
public:
    CruncherOps(StepOpList& list, double elementBytes)
        : list_(list)
        , e_(elementBytes) {}

    void gemm(const std::string& name, StepTimePhase phase, double m, double nn, double k, double count,
              GemmOrientation orientation) {
        if (count <= 0)
            return;
        StepOp op;
        op.name = name;
        op.phase = phase;
        op.gemm = true;
        op.orientation = orientation; // one GEMM each: the rate of its own kind where the profile has one
        op.m = m;
        op.n = nn;
        op.k = k;
        op.flops = 2 * m * nn * k;
        op.bytes = (m * k + k * nn + m * nn) * e_;
        op.count = count;
        op.shape = "[" + n(m) + "×" + n(k) + "]·[" + n(k) + "×" + n(nn) + "]";
        list_.ops.push_back(std::move(op));
    }
    void memory(const std::string& name, StepTimePhase phase, double bytes, const std::string& shape,
                double count, bool optimizerUpdate = false) {
        if (count <= 0)
            return;
        StepOp op;
        op.optimizerUpdate = optimizerUpdate; // at the rate calibrate timed the trainer's update at, if any
        op.name = name;
        op.phase = phase;
        op.bytes = bytes;
        op.count = count;
        op.shape = shape;
        list_.ops.push_back(std::move(op));
    }

private:
    StepOpList& list_;
    double e_;
};

// Bytes the update streams per trained parameter: the gradient read; the fp32 weights (the master in mixed
// precision) read and written; each fp32 state tensor read and written; in mixed precision the working
// copy rounded from the master and written. The widened-gradient chunk stays in cache (4096 floats).
double updateBytesPerParameter(const CruncherConfig& c, const RecipeTypes& t, std::string& text) {
    const double g = bytesPerElement(t.working);
    const double states = stateTensorsPerParameter(c.optimizer);
    const double working = t.mixed ? g : 0;
    text = n(g) + " B gradient + 8 B " + std::string(t.mixed ? "master" : "weights") + " + " + n(8 * states) +
           " B state" + (t.mixed ? " + " + n(working) + " B working copy" : std::string());
    return g + 8 + 8 * states + working;
}

constexpr std::string_view kBatchDraw = "batch draw";

// The draw's own arithmetic where the profile timed the trainer's generator: B·D normals at its rate,
// when that takes longer than the bytes the row was priced by.
void drawArithmetic(StepTimeRow& row, double draws, const HardwareProfile& profile) {
    if (!(profile.normalDrawsPerSecond > 0))
        return;
    const double seconds = draws / profile.normalDrawsPerSecond;
    if (seconds <= row.seconds)
        return;
    row.kind = StepTimeKind::compute;
    row.seconds = seconds;
    row.formula = "B·D draws / rate = " + n(draws) + " / " + n(profile.normalDrawsPerSecond) +
                  " draws/s = " + n(seconds) + " s (the bytes: " + row.formula + ")";
}

} // namespace

StepOpList cruncherStepOps(const CruncherConfig& c, bool batchDrawTimed) {
    StepOpList list;
    const std::optional<RecipeTypes> types = recipeTypes(c);
    if (!types) {
        list.whyNot = "--precision " + trainingRecipeName(c) + ": no Cruncher trainer runs this recipe";
        return list;
    }
    list.dtype = types->gemm;
    list.activations = types->working;
    const double B = static_cast<double>(c.batch), D = static_cast<double>(c.dim);
    const long L = c.layers;
    const double e = bytesPerElement(types->working);
    CruncherOps ops(list, e);
    if (batchDrawTimed) // X (B×D) written in the working dtype, t (B) in fp32, w* (D) read
        ops.memory(std::string(kBatchDraw), StepTimePhase::forward, B * D * e + 4 * B + 4 * D,
                   "B·D·" + n(e) + " B + 4·B + 4·D", 1);
    ops.gemm("layer forward h·W", StepTimePhase::forward, B, D, D, static_cast<double>(L),
             GemmOrientation::forward);
    ops.gemm("head forward h·w", StepTimePhase::forward, B, 1, D, 1, GemmOrientation::forward);
    // y and dL/dy in the working dtype, t in fp32.
    ops.memory("MSE loss and dL/dy", StepTimePhase::backward, B * (2 * e + 4), "B·(2·" + n(e) + " + 4) B", 1);
    const long lowest = lowestTrainingLayer(c.frozenLayers, L) - 1; // 0-based; L: the head alone trains
    ops.gemm("head dw = hᵀ·dy", StepTimePhase::backward, D, 1, B, 1, GemmOrientation::weightGradient);
    ops.gemm("head dX = dy·wᵀ", StepTimePhase::backward, B, D, 1, lowest < L ? 1 : 0,
             GemmOrientation::inputGradient);
    double trainedLayers = 0, inputGradients = 0;
    for (long l = L - 1; l >= lowest; --l) {
        if (layerTrains(c.frozenLayers, l + 1))
            ++trainedLayers;
        if (l > lowest)
            ++inputGradients;
    }
    ops.gemm("layer dW = hᵀ·dh", StepTimePhase::backward, D, D, B, trainedLayers,
             GemmOrientation::weightGradient);
    ops.gemm("layer dX = dh·Wᵀ", StepTimePhase::backward, B, D, D, inputGradients,
             GemmOrientation::inputGradient);
    if (types->lossScaled) // GradScaler: each gradient read once for inf/NaN before the update
        ops.memory("gradient inf/NaN check", StepTimePhase::optimizer, D * D * e, "D²·" + n(e) + " B",
                   trainedLayers);
    if (types->lossScaled)
        ops.memory("head gradient inf/NaN check", StepTimePhase::optimizer, D * e, "D·" + n(e) + " B", 1);
    std::string perParameter;
    const double u = updateBytesPerParameter(c, *types, perParameter);
    const std::string optimizer(optimizerName(c.optimizer));
    ops.memory(optimizer + " update, layer", StepTimePhase::optimizer, D * D * u,
               "D² × (" + perParameter + ")", trainedLayers, true);
    ops.memory(optimizer + " update, head", StepTimePhase::optimizer, D * u, "D × (" + perParameter + ")", 1,
               true);
    // The CPU trainers' update is one pass per element over fp32 master weights and state
    // (applyOptimizerStep): a profile that timed it (napkin-cli calibrate) has its rate as a fused update.
    list.optimizer = c.optimizer;
    list.optimizerImplementation = OptimizerImplementation::fused;
    list.updateDtype = StorageType::fp32;
    list.updateElements = D * D;
    list.notModelled.emplace_back("the loss's arithmetic (O(B)): taken as hidden behind its bytes");
    if (types->lossScaled)
        list.notModelled.emplace_back("the loss scale's update and the device's memsets: one overhead each, "
                                      "not counted");
    return list;
}

StepTime predictCruncherStepTime(const CruncherConfig& c, const HardwareProfile& profile,
                                 bool batchDrawTimed) {
    StepTime t;
    t.basis = profile.source;
    const StepOpList list = cruncherStepOps(c, batchDrawTimed);
    if (!list.whyNot.empty()) {
        t.whyNot = list.whyNot;
        return t;
    }
    const std::string dtype(computeTypeName(list.dtype));
    if (fastestGemmFlopsPerSecond(profile, list.dtype) <= 0) {
        t.whyNot =
            "the profile (" + profile.source + ") has no " + dtype + " GEMM rate: calibrate with " + dtype;
        return t;
    }
    // The optimizer streams fp32, the draw and the loss the working dtype: each needs a bandwidth.
    for (const StorageType streamed : {list.activations, StorageType::fp32})
        if (!(memoryBytesPerSecond(profile, streamed) > 0)) {
            t.whyNot = "the profile (" + profile.source + ") has no memory bandwidth";
            return t;
        }
    // The GEMMs must be the ones the run counts (TrainingRun::flopsPerStep): another list would time
    // another model.
    double listed = 0;
    for (const StepOp& op : list.ops)
        listed += op.flops * op.count;
    const double counted = cruncherCountedFlopsPerStep(c);
    if (std::abs(listed - counted) > 1e-9 * std::max(counted, 1.0)) {
        t.whyNot = "the op list's FLOPs (" + n(listed) + ") differ from the run's count (" + n(counted) + ")";
        return t;
    }
    std::array<double, 6> launches{};
    for (const StepOp& op : list.ops) {
        // The optimizer's master weights and state are fp32: its ops stream at fp32's rate.
        const StorageType streamed =
            op.phase == StepTimePhase::optimizer ? StorageType::fp32 : list.activations;
        StepTimeRow row = costStepOp(op, profile, list, streamed);
        if (op.name == kBatchDraw)
            drawArithmetic(row, static_cast<double>(c.batch) * static_cast<double>(c.dim), profile);
        t.ledger.push_back(std::move(row));
        launches[static_cast<std::size_t>(op.phase)] += op.launches * op.count;
    }
    if (batchDrawTimed && !(profile.normalDrawsPerSecond > 0))
        t.notModelled.emplace_back("the batch draw's arithmetic (a counter-based normal per element): the "
                                   "profile has no draw rate (napkin-cli calibrate on the CPU times one), so "
                                   "only its bytes are timed");
    if (!(updateBytesPerSecond(profile, list.optimizer, list.optimizerImplementation, list.updateDtype,
                               list.updateElements) > 0))
        t.notModelled.emplace_back(
            "the optimizer's arithmetic: the profile has no rate for the trainer's "
            "update (napkin-cli calibrate on the CPU times one), so only its bytes are "
            "timed");
    for (std::size_t i = 0; i < launches.size(); ++i)
        if (std::optional<StepTimeRow> row =
                perOpOverheadRow(static_cast<StepTimePhase>(i), launches[i], profile))
            t.ledger.push_back(std::move(*row));
    for (const StepTimeRow& row : t.ledger)
        t.seconds += row.seconds;
    t.notModelled.insert(t.notModelled.end(), list.notModelled.begin(), list.notModelled.end());
    t.predicted = true;
    return t;
}

std::string cruncherRunDeviceId(const DeviceInfo& device) {
    if (device.backend == "cpu")
        return "this-cpu";
    const std::string id = catalogIdForDeviceName(device.name);
    return id.empty() ? device.name : id;
}

std::string cruncherProfileMismatch(const HardwareProfile& profile, const DeviceInfo& device) {
    const std::string id = cruncherRunDeviceId(device);
    if (!equalsIgnoringCase(profile.device, id))
        return "device: the profile was measured on " + profile.device + ", this run is on " + id;
    // Every CPU profile is "this-cpu": its driver name tells one CPU from another.
    if (device.backend == "cpu" && !profile.deviceName.empty() && !device.name.empty() &&
        profile.deviceName != device.name)
        return "device_name: the profile was measured on " + profile.deviceName + ", this run is on " +
               device.name;
    // A CPU's GEMMs run at other rates on another thread count (a two-thread profile read 0.04-0.64 of a
    // one-thread run's step on this VM: docs/benchmarks.md).
    if (device.backend == "cpu" && profile.threads > 0 && device.threads > 0 &&
        profile.threads != device.threads)
        return "threads: the profile was measured with " + std::to_string(profile.threads) +
               " thread(s), this run uses " + std::to_string(device.threads);
    return {};
}

std::optional<HardwareProfile> defaultCruncherProfile(const DeviceInfo& device, std::string& whyNot) {
    if (device.backend == "cpu") {
        whyNot = "no profile for this CPU (napkin-cli calibrate writes one)";
        return std::nullopt;
    }
    const std::string id = cruncherRunDeviceId(device);
    const GpuSpec* gpu = GpuCatalog::builtIn().find(id);
    if (!gpu) {
        whyNot = "no published profile for " + id + " (napkin-cli calibrate --device cuda writes one)";
        return std::nullopt;
    }
    return defaultProfile(*gpu, whyNot);
}

void predictRunStep(TrainingRun& run, const std::optional<HardwareProfile>& chosen,
                    const std::string& origin) {
    if (chosen) {
        if (const std::string mismatch = cruncherProfileMismatch(*chosen, run.device); !mismatch.empty())
            attachUnpredictedStep(run, origin + ": " + mismatch);
        else
            attachPredictedStep(run, *chosen, origin);
        return;
    }
    std::string whyNot;
    if (const std::optional<HardwareProfile> published = defaultCruncherProfile(run.device, whyNot))
        attachPredictedStep(run, *published, "the published profile of " + cruncherRunDeviceId(run.device));
    else
        attachUnpredictedStep(run, whyNot);
}

void attachPredictedStep(TrainingRun& run, const HardwareProfile& profile, const std::string& origin) {
    run.predictedStep =
        predictCruncherStepTime(run.request.config, profile, !run.deviceStepTiming.has_value());
    run.predictedStep.basis = origin + " (" + profile.source + ")";
}

void attachUnpredictedStep(TrainingRun& run, const std::string& whyNot) {
    run.predictedStep = StepTime{};
    run.predictedStep.whyNot = whyNot;
}

double measuredStepSeconds(const TrainingRun& run) {
    return run.deviceStepTiming ? run.deviceStepTiming->medianSeconds : run.stepTiming.medianSeconds;
}

std::optional<double> predictedOverMeasured(const TrainingRun& run) {
    const double measured = measuredStepSeconds(run);
    if (!run.predictedStep.predicted || !(measured > 0))
        return std::nullopt;
    return run.predictedStep.seconds / measured;
}

std::string predictedStepLine(const TrainingRun& run) {
    const std::string measured = "step: measured " + formatDuration(measuredStepSeconds(run));
    if (!run.predictedStep.predicted)
        return measured + ", not predicted: " + run.predictedStep.whyNot;
    return measured + ", predicted " + formatDuration(run.predictedStep.seconds) + " (×" +
           formatNumber(predictedOverMeasured(run).value_or(0)) + ") from " + run.predictedStep.basis;
}

} // namespace napkin
