// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The interface every compute backend (oneDNN and Eigen on the CPU, CUDA) implements for the benchmarks.
#include "engine/accounting/memory_timeline.h"
#include "engine/accounting/precision_recipe.h"
#include "engine/compute/benchmark_result.h"
#include "engine/compute/cruncher_config.h"
#include "engine/compute/memory_ledger.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace napkin {

/// Asked between chunks of long work; returns false to stop early.
using KeepGoing = std::function<bool()>;

/// One prepared GEMM with random inputs, ready to be timed.
class MatmulProblem {
public:
    virtual ~MatmulProblem() = default;
    /// C = A·B once. Long GEMMs are split into column panels and `keepGoing` is asked between them;
    /// returns false when it stopped early (C is then incomplete).
    virtual bool run(const KeepGoing& keepGoing) = 0;
    /// Max over `samples` random entries of |c − ref| / Σ_k|a_ik·b_kj|, ref computed in long double
    /// from the same (rounded) inputs. Call after a complete run().
    virtual double maxRelativeError(int samples, std::uint64_t seed) const = 0;
    /// A, B and C as doubles, column-major (for tests against an independent reference).
    struct Snapshot {
        std::vector<double> a, b, c;
    };
    virtual Snapshot snapshot() const = 0;
    /// Device-timed runs (CUDA events, L2 flushed before each call, outside the timed span): seconds per
    /// call over `calls` complete runs. nullopt (the default) means "time me with the host's steady
    /// clock around run()". keepGoing is asked once before the timed runs.
    virtual std::optional<double> timedRun(int calls, const KeepGoing& keepGoing) {
        (void)calls;
        (void)keepGoing;
        return std::nullopt;
    }
    /// Which library and kernel run this GEMM; empty where the backend's DeviceInfo says it all.
    struct Kernel {
        std::string cpuBackend;     ///< "onednn", "eigen"
        std::string implementation; ///< "brg:avx512_core_bf16", "eigen:float", ...
    };
    virtual Kernel kernel() const { return {}; }
};

/// How a device trainer's last step split its time (CUDA events on the device, a steady clock on the host).
struct DeviceStepTiming {
    double deviceSeconds = 0; ///< the step's work on the device: first GEMM to the optimizer's end
    double drawSeconds = 0;   ///< the input batch and its targets drawn on the device, before that span
};

/// Device memory one component took, measured as it was allocated (CUDA: cudaMemGetInfo around it).
struct DeviceAllocation {
    std::string component;      ///< "parameters", "gradients", ..., or what the driver took on its own
    double requestedBytes = 0;  ///< the bytes the trainer asked the allocator for (0: not the trainer's)
    int buffers = 0;            ///< how many allocations that took
    double memGetInfoBytes = 0; ///< the drop in the device's free memory across them
};

/// A Cruncher being trained; every buffer it holds is in its ledger().
class CruncherTrainer {
public:
    virtual ~CruncherTrainer() = default;
    /// One step: draw a batch, forward, MSE loss, backward, optimizer update. Returns the loss
    /// computed in the forward pass (before the update).
    virtual double step() = 0;
    virtual long stepsDone() const = 0;
    virtual const MemoryLedger& ledger() const = 0;
    /// Parameters + optimizer state + step + data generator state; throws std::runtime_error on I/O.
    virtual void saveCheckpoint(const std::string& path) const = 0;
    /// Restores what saveCheckpoint wrote for the same configuration; throws std::runtime_error.
    virtual void loadCheckpoint(const std::string& path) = 0;
    /// A copy of the parameters, layer by layer then the head (for tests).
    virtual std::vector<float> parameters() const = 0;
    /// Bytes the device allocator itself reports these buffers took (CUDA: cudaMemGetInfo before and
    /// after allocating them, so rounded up to its page size); nullopt where there is no such figure.
    virtual std::optional<double> allocatorReportedBytes() const { return std::nullopt; }
    /// The ledger's bytes at each event of the last step (engine/accounting/memory_timeline.h), for a
    /// trainer that allocates in PyTorch's eager order and records them (engine/compute/
    /// memory_timeline_recorder.h); empty for one that allocates everything up front.
    virtual std::vector<TimelineEvent> measuredTimeline() const { return {}; }
    /// The last step's device and host times, for a trainer on a device that times itself (CUDA);
    /// nullopt on the CPU, whose step is all host time.
    virtual std::optional<DeviceStepTiming> lastStepTiming() const { return std::nullopt; }
    /// Per component, the device memory each took as it was allocated (parameters, gradients, optimizer
    /// state, activations, inputs, workspace), then what the first step took beyond them; empty on the CPU.
    virtual std::vector<DeviceAllocation> deviceAllocations() const { return {}; }
};

class BenchmarkBackend {
public:
    virtual ~BenchmarkBackend() = default;
    virtual DeviceInfo deviceInfo() const = 0;
    /// Empty when `dtype` is supported, else why not.
    virtual std::string unsupportedReason(BenchDtype dtype) const = 0;
    /// Random inputs (uniform in [−1, 1], seeded). Throws std::runtime_error when it cannot.
    virtual std::unique_ptr<MatmulProblem> prepareMatmul(const MatmulCase& shape, std::uint64_t seed) = 0;
    /// Throws std::invalid_argument for a configuration the backend cannot train.
    virtual std::unique_ptr<CruncherTrainer> makeCruncherTrainer(const CruncherConfig& config) = 0;
    /// Empty when the Cruncher trainer runs `recipe`, else why not (the default: fp32 only).
    virtual std::string unsupportedPrecisionReason(PrecisionRecipe recipe) const {
        if (recipe == PrecisionRecipe::fp32)
            return {};
        return "this backend's Cruncher trainer runs fp32 only";
    }
    /// Empty when the Cruncher trainer runs fp32 GEMMs on TF32 tensor cores, else why not (the default:
    /// a CPU has none).
    virtual std::string unsupportedTf32Reason() const {
        return "TF32 is a matmul mode of NVIDIA tensor cores (Ampere and later): use --device cuda";
    }
    /// Empty when the Cruncher trainer runs `config`'s recipe (precision, and TF32 GEMMs where asked).
    std::string unsupportedRecipeReason(const CruncherConfig& config) const {
        if (!config.tf32Matmuls)
            return unsupportedPrecisionReason(config.precision);
        if (config.precision != PrecisionRecipe::fp32)
            return "TF32 is a matmul mode of fp32 storage only";
        return unsupportedTf32Reason();
    }
};

} // namespace napkin
